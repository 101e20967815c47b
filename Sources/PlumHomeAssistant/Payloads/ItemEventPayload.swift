package import PlumProtocol

/// One fruit put on or taken off a pan, as the pan's "item" event entity in Home Assistant sees
/// it: `{"event_type":"placed","grams":87.3,"seq":3,"item":3,"gross_after":152.2,
/// "weight_class":"large","flags":[]}` on `<base>/<pan>/item`, never retained.
///
/// Its own entity, not more types on the pan's "action" entity: an automation on items
/// ("a plum of the large class was placed") then triggers on this entity alone and never on a
/// tare's answer, and the "last action" sensor keeps saying what came of the last press rather
/// than being overwritten by every plum. Every attribute is sent with every event, `null` when
/// empty, so a template never finds one missing.
package struct ItemEventPayload: Hashable, Sendable, Encodable {
    /// The event types the entity declares: the detector's three kinds.
    package static let types = ["placed", "removed", "retracted"]

    /// `placed` or `removed`.
    package var eventType: String
    /// The item's weight, rounded to the division its report was weighed in.
    package var grams: Double
    /// The event's number on this pan since the daemon started; a gap means a missed event.
    package var sequence: Int
    /// The item's number; nil for a `removed` in `accumulate`, which cannot tell which fruit left.
    package var item: Int?
    /// The gross load the pan settled at after the step.
    package var grossAfter: Double
    /// The `[[class]]` band of a `placed` item; nil without bands, below the first, or removed.
    package var weightClass: String?
    /// `merged`, `stacked`: what the detector could not be sure of; empty for a clean step.
    package var flags: [String]

    /// The event of an `ITEM` report; nil for a kind the entity does not declare (Home Assistant
    /// would reject the event).
    package init?(_ report: ItemReport) {
        guard Self.types.contains(report.event) else { return nil }
        let division = DivisionRounding(grams: report.division)
        eventType = report.event
        grams = division.round(report.grams)
        sequence = report.sequence
        item = report.item
        grossAfter = division.round(report.grossAfter)
        weightClass = report.weightClass
        flags = report.flags
    }

    private enum CodingKeys: String, CodingKey {
        case eventType = "event_type"
        case grams, item, flags
        case sequence = "seq"
        case grossAfter = "gross_after"
        case weightClass = "weight_class"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventType, forKey: .eventType)
        try container.encode(grams, forKey: .grams)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(item, forKey: .item)
        try container.encode(grossAfter, forKey: .grossAfter)
        try container.encode(weightClass, forKey: .weightClass)
        try container.encode(flags, forKey: .flags)
    }
}
