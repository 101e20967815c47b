internal import NIOCore

/// Splits a byte stream into lines at LF, refusing a line longer than the limit as soon as
/// the limit is passed, without buffering the rest of it.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// The longest line accepted, without its line ending.
    let maximumLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            // Allow a CR before the LF beyond the limit: it is part of the line ending.
            let content = length > 0 && view[newline - 1] == UInt8(ascii: "\r") ? length - 1 : length
            guard content <= maximumLength else { throw LineTooLong(limit: maximumLength) }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(Self.wrapInboundOut(line))
            return .continue
        }
        guard buffer.readableBytes <= maximumLength + 1 else { throw LineTooLong(limit: maximumLength) }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last line without its newline (a client that half-closes after writing) still counts.
        if seenEOF, buffer.readableBytes > 0, let line = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(Self.wrapInboundOut(line))
        }
        return .needMoreData
    }
}

/// A client sent a line longer than the protocol allows.
struct LineTooLong: Error, Hashable {
    var limit: Int
}
