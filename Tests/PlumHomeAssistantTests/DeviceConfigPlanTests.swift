import PlumHomeAssistant
import PlumProtocol
import Testing

/// The decisions behind each device config the bridge publishes, without a broker: which old
/// per-entity configs are migrated or emptied, which components are removed, and when an alert's
/// fate waits for the daemon's alerts.
@Suite("device config plan")
struct DeviceConfigPlanTests {
    static let discovery = DeviceDiscoveryTests.discovery
    static let fruitLow = alertRule("fruit-low", sensor: "left")
    static let oldWeight = "homeassistant/sensor/plumscale_kitchen/left_weight/config"
    static let oldGone = "homeassistant/sensor/plumscale_kitchen/gone_weight/config"
    static let oldAlert = "homeassistant/binary_sensor/plumscale_kitchen/alert_fruit-low/config"

    static func plan(
        alerts: [AlertReport] = [], legacy: [String] = [], known: [String: String] = [:], alertsKnown: Bool = true,
        alertsGone: Set<String> = [], published: DeviceDiscoveryPayload? = nil, force: Bool = false
    ) -> DeviceConfigPlan {
        let components = discovery.components(pans: ["left"], alerts: alerts)
        let judged = legacy.filter {
            DeviceConfigPlan.canJudge($0, components: components, alertsKnown: alertsKnown, discovery: discovery)
        }
        return DeviceConfigPlan(
            discovery: discovery, components: components, legacy: judged, known: known, alertsKnown: alertsKnown,
            alertsGone: alertsGone, published: published, force: force)
    }

    @Test("an old config whose entity is there is migrated; one whose pan left is emptied; both with the config")
    func legacyTopics() {
        let plan = Self.plan(legacy: [Self.oldWeight, Self.oldGone])
        #expect(plan.migrated == [Self.oldWeight], "migrated: \(plan.migrated)")
        #expect(plan.cleared == [Self.oldGone], "cleared: \(plan.cleared)")
        #expect(plan.sendsConfig && plan.removing == nil, "the device config follows, nothing to remove")
    }

    @Test("an old alert config waits while the daemon may still report its alert, then is migrated or emptied")
    func legacyAlertWaits() {
        let waiting = Self.plan(legacy: [Self.oldAlert], alertsKnown: false)
        #expect(waiting.migrated.isEmpty && waiting.cleared.isEmpty, "judged before the alerts were known")
        let reported = Self.plan(alerts: [Self.fruitLow], legacy: [Self.oldAlert], alertsKnown: false)
        #expect(reported.migrated == [Self.oldAlert], "a reported alert's old config is migrated at once")
        let gone = Self.plan(legacy: [Self.oldAlert], alertsKnown: true)
        #expect(gone.cleared == [Self.oldAlert], "an alert the daemon no longer has: its old config emptied")
        #expect(gone.emptiedStates == ["plumscale/kitchen/alert/fruit-low/state"], "and its state")
    }

    @Test("a known component no longer there is removed with p alone, then sent without it")
    func removal() throws {
        let plan = Self.plan(known: ["right_weight": "sensor", "left_weight": "sensor"])
        #expect(plan.removed == ["right_weight": "sensor"], "removed: \(plan.removed)")
        let removing = try #require(plan.removing, "a config that removes")
        #expect(removing.components["right_weight"] == .removed(platform: "sensor"), "p alone")
        #expect(plan.config.components["right_weight"] == nil && plan.sendsConfig, "then left out")
    }

    @Test("an alert component waits for the daemon's alerts unless the daemon said it is gone")
    func alertRemovalWaits() {
        let known = ["alert_fruit-low": "binary_sensor"]
        #expect(Self.plan(known: known, alertsKnown: false).removed.isEmpty, "removed before the alerts were known")
        let gone = Self.plan(known: known, alertsKnown: false, alertsGone: ["alert_fruit-low"])
        #expect(gone.removed == known, "the daemon reported it removed")
        #expect(gone.emptiedStates == ["plumscale/kitchen/alert/fruit-low/state"], "its state emptied")
        #expect(Self.plan(known: known, alertsKnown: true).removed == known, "not among the known alerts")
    }

    @Test("an unchanged config is not sent again unless forced")
    func unchanged() {
        let first = Self.plan(alerts: [Self.fruitLow])
        #expect(first.sendsConfig, "the first config")
        #expect(!Self.plan(alerts: [Self.fruitLow], published: first.config).sendsConfig, "unchanged")
        #expect(Self.plan(alerts: [Self.fruitLow], published: first.config, force: true).sendsConfig, "forced")
        #expect(Self.plan(alerts: [], published: first.config).sendsConfig, "changed")
    }
}
