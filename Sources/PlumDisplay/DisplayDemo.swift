internal import Logging
internal import PlumClient
package import PlumDrivers
internal import PlumSimulation
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// `plumscale demo --display`: the display service on a simulated SSD1306, its frame, as the
/// chip model holds it after each refresh, handed to the terminal. The same service, layout,
/// driver and model as `plumscale-display` with `kind = "simulated-ssd1306"`.
package enum DisplayDemo {
    /// Follows the daemon at `socket` until `stop()` is true (checked every 50 ms); blocks.
    /// - Parameter show: called on the service's task with each frame the model shows.
    package static func run(
        socket: String, height: Int, show: @escaping @Sendable (MonoBitmap) -> Void,
        stop: @escaping @Sendable () -> Bool
    ) {
        var logger = Logger(label: "plumscale-display")
        logger.logLevel = .critical
        let service = DisplayService(
            link: DisplayService.link(socketPath: socket), board: DisplayBoard(sensors: [], pageAddress: nil),
            alternate: .seconds(4), logger: logger)
        let finished = Atomic<Bool>(false)
        let task = Task.detached {
            let geometry: SSD1306<SSD1306Model>.Geometry = height == 32 ? .w128h32 : .w128h64
            let model = SSD1306Model(height: geometry.height, powerOnSeed: nil)
            var panel = OLEDPanel(
                driver: SSD1306(bus: model, geometry: geometry), geometry: geometry,
                afterShow: { show($0.frame) })
            await service.run(panel: &panel)
            finished.store(true, ordering: .releasing)
        }
        while !stop() { usleep(50_000) }
        task.cancel()
        for _ in 0..<100 where !finished.load(ordering: .acquiring) { usleep(20_000) }
    }
}
