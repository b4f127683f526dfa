import VocabCore

/// The state of a device's login to the cloud, like the original app's account status.
public enum AccountStatus: Equatable, Sendable {
    case available(ServerAddress)
    case notLoggedIn
    case cannotReachServer(CloudError)
    case accessDenied(CloudError)

    /// One line on the account's state.
    public var summary: String {
        switch self {
        case .available(let address): return "available: \(address.url)"
        case .notLoggedIn: return "not logged in"
        case .cannotReachServer(let error): return "cannot reach server: \(error.message)"
        case .accessDenied(let error): return "access denied: \(error.message)"
        }
    }

    /// The error a cloud command refuses with when the account is not available.
    public var refusal: CloudError? {
        switch self {
        case .available: return nil
        case .notLoggedIn: return .notLoggedIn
        case .cannotReachServer(let error), .accessDenied(let error): return error
        }
    }
}
