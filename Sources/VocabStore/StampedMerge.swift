import VocabCore

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

    /// Takes the remote value of a described field when its stamp is the newer one.
    mutating func take(_ field: ModelField<Record>) {
        guard let theirs = remoteStamps[field.name],
              theirs > (localStamps[field.name] ?? FieldStamp(milliseconds: .min, device: "")) else { return }
        field.write(&merged, field.read(remote))
        stamps[field.name] = theirs
    }

}
