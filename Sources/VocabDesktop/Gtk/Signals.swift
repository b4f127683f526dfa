import CGtk
import Glibc
import Dispatch

/// A GTK widget, as GTK hands it out.
typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Holds a Swift closure for the life of a signal connection or a GLib source.
private final class ClosureBox<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }
}

private func retained<Body>(_ body: Body) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(ClosureBox(body)).toOpaque()
}

private func box<Body>(_ data: UnsafeMutableRawPointer, as: Body.Type) -> ClosureBox<Body> {
    Unmanaged<ClosureBox<Body>>.fromOpaque(data).takeUnretainedValue()
}

private typealias Plain = @MainActor () -> Void
private typealias WithPointer = @MainActor (UnsafeMutableRawPointer?) -> Void
private typealias WithInt = @MainActor (Int32) -> Void
private typealias KeyHandler = @MainActor (UInt32, GdkModifierType) -> Bool

/// Releases the box when GLib drops the connection.
private let releaseBox: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, _ data: UnsafeMutableRawPointer) {
    _ = vocab_signal_connect(instance, signal, callback, data, releaseBox)
}

/// Calls `action` when `signal` (one whose handler takes only the instance) is emitted.
@MainActor
func on(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping @MainActor () -> Void) {
    let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        guard let data else { return }
        let handler = box(data, as: Plain.self)
        MainActor.assumeIsolated { handler.body() }
    }
    connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), retained(action as Plain))
}

/// Calls `action` with the signal's pointer argument (a list item, a parameter spec, a string).
@MainActor
func on(_ instance: UnsafeMutableRawPointer, _ signal: String, pointer action: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) {
    let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
        guard let data else { return }
        let handler = box(data, as: WithPointer.self)
        MainActor.assumeIsolated { handler.body(argument) }
    }
    connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), retained(action as WithPointer))
}

/// Calls `action` with the signal's integer argument (a native dialog's response).
@MainActor
func on(_ instance: UnsafeMutableRawPointer, _ signal: String, int action: @escaping @MainActor (Int32) -> Void) {
    let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
        guard let data else { return }
        let handler = box(data, as: WithInt.self)
        MainActor.assumeIsolated { handler.body(argument) }
    }
    connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), retained(action as WithInt))
}

/// Calls `action` on every key press the controller sees; it returns true when it handled it.
@MainActor
func onKeyPressed(_ controller: UnsafeMutableRawPointer, _ action: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) {
    let callback: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, data in
        guard let data else { return 0 }
        let handler = box(data, as: KeyHandler.self)
        return MainActor.assumeIsolated { handler.body(keyval, state) } ? 1 : 0
    }
    connect(controller, "key-pressed", unsafeBitCast(callback, to: GCallback.self), retained(action as KeyHandler))
}

/// Calls `action` every `milliseconds` while it returns true.
@MainActor
func every(milliseconds: UInt32, _ action: @escaping @MainActor () -> Bool) {
    typealias Repeating = @MainActor () -> Bool
    let callback: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
        guard let data else { return 0 }
        let handler = box(data, as: Repeating.self)
        return MainActor.assumeIsolated { handler.body() } ? 1 : 0
    }
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }
    _ = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, retained(action as Repeating), destroy)
}

/// Makes libdispatch's main queue (and so `DispatchQueue.main.async` and `@MainActor` tasks)
/// run under GLib's main loop: GTK blocks the main thread, and nothing else drains that queue.
enum MainQueueBridge {
    static func install() {
        let descriptor = _dispatch_get_main_queue_handle_4CF()
        let callback: @convention(c) (Int32, GIOCondition, UnsafeMutableRawPointer?) -> gboolean = { descriptor, _, _ in
            // The handle is an eventfd: read it to clear it, or GLib calls back at once, forever,
            // and the window never gets to draw.
            var counter: UInt64 = 0
            _ = read(descriptor, &counter, 8)
            _dispatch_main_queue_callback_4CF(nil)
            return 1
        }
        _ = g_unix_fd_add(descriptor, G_IO_IN, callback, nil)
    }
}

/// Runs `work` off the main thread (it must touch no widget), then `then` with its result on
/// the main thread: dictionary look-ups, the browser, the cloud's account check.
func offMain<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping @MainActor @Sendable (T) -> Void) {
    DispatchQueue.global().async {
        let result = work()
        onMain { then(result) }
    }
}

/// Hands `update` to the main thread (progress reported by a job on another thread).
func onMain(_ update: @escaping @MainActor @Sendable () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { update() } }
}
