import CGtk

/// A chart drawn with cairo in a GtkDrawingArea: bars, a calendar of weeks, or one bar split
/// into parts. The text colour is the theme's (light or dark); the drawing has no text of its
/// own for screen readers, so its accessible name and description are the chart's title and
/// summary (what the tests read).
@MainActor
final class ChartArea {
    /// An sRGB colour, 0 to 1.
    struct Colour { var red, green, blue: Double }

    enum Figure {
        /// Bars as tall as their share of the largest, with a label under some of them.
        case bars([Int], labels: [(index: Int, text: String)], colour: Colour)
        /// Days as a grid of weeks (a column a week, today the last cell), shaded by count.
        case weeks([Int?])
        /// One bar split in parts of these sizes.
        case parts([(count: Int, colour: Colour)])
    }

    static let blue = Colour(red: 0.21, green: 0.52, blue: 0.89)
    static let green = Colour(red: 0.15, green: 0.64, blue: 0.41)
    static let purple = Colour(red: 0.57, green: 0.25, blue: 0.67)

    let widget: Widget
    var figure: Figure = .bars([], labels: [], colour: ChartArea.blue) {
        didSet { gtk_widget_queue_draw(widget) }
    }

    init(height: Int32) {
        widget = vocab_chart_area_new()!
        gtk_drawing_area_set_content_height(vocab_drawing_area(widget), height)
        gtk_widget_set_hexpand(widget, 1)
        let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
            guard let cairo, let data else { return }
            let chart = Unmanaged<ChartArea>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { chart.draw(cairo, width: Double(width), height: Double(height)) }
        }
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
            guard let data else { return }
            Unmanaged<ChartArea>.fromOpaque(data).release()
        }
        gtk_drawing_area_set_draw_func(vocab_drawing_area(widget), draw, Unmanaged.passRetained(self).toOpaque(), release)
    }

    /// The chart's title and text summary, for screen readers.
    func describe(title: String, summary: String) {
        vocab_set_accessible_label(widget, title)
        vocab_set_accessible_description(widget, summary)
    }

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        var text = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &text)
        switch figure {
        case .bars(let values, let labels, let colour):
            drawBars(cairo, values, labels, colour, text, width: width, height: height)
        case .weeks(let cells):
            drawWeeks(cairo, cells, text, width: width, height: height)
        case .parts(let parts):
            var x = 0.0
            let total = Double(max(1, parts.reduce(0) { $0 + $1.count }))
            for part in parts where part.count > 0 {
                let wide = Double(part.count) / total * width
                fill(cairo, part.colour)
                cairo_rectangle(cairo, x, 0, wide, min(height, 24))
                cairo_fill(cairo)
                x += wide
            }
        }
    }

    private func drawBars(_ cairo: OpaquePointer, _ values: [Int], _ labels: [(index: Int, text: String)], _ colour: Colour,
                          _ text: GdkRGBA, width: Double, height: Double) {
        let plot = height - 16, top = Double(max(1, values.max() ?? 0)), step = width / Double(max(values.count, 1))
        fill(cairo, colour)
        for (index, value) in values.enumerated() where value > 0 {
            let tall = max(2, Double(value) / top * plot)
            cairo_rectangle(cairo, Double(index) * step + step * 0.12, plot - tall, max(1, step * 0.76), tall)
        }
        cairo_fill(cairo)
        cairo_set_source_rgba(cairo, Double(text.red), Double(text.green), Double(text.blue), 0.5)
        cairo_set_line_width(cairo, 1)
        cairo_move_to(cairo, 0, plot + 0.5)
        cairo_line_to(cairo, width, plot + 0.5)
        cairo_stroke(cairo)
        cairo_set_source_rgba(cairo, Double(text.red), Double(text.green), Double(text.blue), 0.8)
        cairo_select_font_face(cairo, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, 11)
        for label in labels {
            var extents = cairo_text_extents_t()
            cairo_text_extents(cairo, label.text, &extents)
            let middle = Double(label.index) * step + step / 2
            let x = min(max(0, middle - extents.width / 2), width - extents.width)
            cairo_move_to(cairo, x, height - 3)
            cairo_show_text(cairo, label.text)
        }
    }

    private func drawWeeks(_ cairo: OpaquePointer, _ cells: [Int?], _ text: GdkRGBA, width: Double, height: Double) {
        let weeks = (cells.count + 6) / 7
        let size = min(22, width / Double(max(weeks, 1)), height / 7)
        let top = Double(max(1, cells.compactMap { $0 }.max() ?? 0))
        for (index, cell) in cells.enumerated() {
            guard let count = cell else { continue }
            if count == 0 {
                cairo_set_source_rgba(cairo, Double(text.red), Double(text.green), Double(text.blue), 0.1)
            } else {
                let share = min(1, Double(count) / top)
                cairo_set_source_rgba(cairo, Self.blue.red, Self.blue.green, Self.blue.blue, 0.3 + 0.7 * share)
            }
            cairo_rectangle(cairo, Double(index / 7) * size, Double(index % 7) * size, size - 1, size - 1)
            cairo_fill(cairo)
        }
    }

    private func fill(_ cairo: OpaquePointer, _ colour: Colour) {
        cairo_set_source_rgb(cairo, colour.red, colour.green, colour.blue)
    }
}
