#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The libm functions the load models use, in one place so that they need no Foundation.
enum LoadMath {
    @inline(__always) static func exp(_ x: Double) -> Double { Glibc.exp(x) }
    @inline(__always) static func sin(_ x: Double) -> Double { Glibc.sin(x) }
    @inline(__always) static func cos(_ x: Double) -> Double { Glibc.cos(x) }
}
