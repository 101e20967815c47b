package import PlumDrivers

/// A sample source whose reads hold its chip's lock.
package final class SerializedSource: SampleSource {
    private let source: any SampleSource
    private let lock: ChipLock

    package init(_ source: any SampleSource, lock: ChipLock) {
        self.source = source
        self.lock = lock
    }

    package var info: SourceInfo { source.info }
    package var statistics: DriverStatistics { source.statistics }

    package func next() throws(SensorError) -> Sample {
        try lock.withLock { () throws(SensorError) -> Sample in try source.next() }
    }
}
