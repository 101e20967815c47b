import ArgumentParser

@main
struct PlumScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plumscale", abstract: "PlumScale: a fruit scale on a single-board computer.")
}
