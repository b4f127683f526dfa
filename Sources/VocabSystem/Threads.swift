import Glibc

/// A lock with a condition to wait on (POSIX `pthread_mutex_t` and `pthread_cond_t`): what
/// threads that hand work to each other share. `lock()` before `wait()`, `broadcast()` after a
/// change the waiters look for.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until another thread broadcasts, then holds it again.
    public func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
    /// Wakes one waiter.
    public func signal() { pthread_cond_signal(condition) }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Starts threads of our own (POSIX threads, detached).
public enum Threads {
    /// Runs `body` on a new thread. False if the system would not start one.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Work(body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
            work.body()
            return nil
        }, box)
        if started != 0 { Unmanaged<Work>.fromOpaque(box).release() }
        return started == 0
    }

    private final class Work: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
