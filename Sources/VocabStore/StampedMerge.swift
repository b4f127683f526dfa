/// A field-by-field merge of two versions of one record: each field takes the remote value
/// when the remote stamp of that field is newer (ties broken by device id, see `FieldStamp`).
struct StampedMerge<Record> {
    private(set) var merged: Record
    private(set) var stamps: [String: FieldStamp]
    private let remote: Record
    private let localStamps: [String: FieldStamp]
    private let remoteStamps: [String: FieldStamp]

    init(local: Record, localStamps: [String: FieldStamp], remote: Record, remoteStamps: [String: FieldStamp]) {
        merged = local
        stamps = localStamps
        self.remote = remote
        self.localStamps = localStamps
        self.remoteStamps = remoteStamps
    }

    /// Takes the remote value of `field` (stored at `path`) when its stamp is the newer one.
    mutating func take<Value>(_ field: String, _ path: WritableKeyPath<Record, Value>) {
        guard let theirs = remoteStamps[field],
              theirs > (localStamps[field] ?? FieldStamp(milliseconds: .min, device: "")) else { return }
        merged[keyPath: path] = remote[keyPath: path]
        stamps[field] = theirs
    }
}
