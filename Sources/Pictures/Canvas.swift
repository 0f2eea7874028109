// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CCairo
import Geometry

/// The kinds of surface a `Canvas` draws on.
public enum PictureFormat: String, Sendable, CaseIterable {
    /// A raster image, encoded as PNG (also the pixels of video frames).
    case png
    /// Scalable Vector Graphics.
    case svg
    /// Portable Document Format.
    case pdf

    /// The format named by a file name's extension (case-insensitive), or nil.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

/// Bytes written by Cairo through a stream callback.
final class ByteSink {
    var bytes: [UInt8] = []
}

private let appendToSink: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt32) -> cairo_status_t = { closure, data, length in
    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}

/// A Cairo surface and its drawing context, in pixels (y down).
///
/// The one owner of both handles: the context is destroyed before the surface. Vector
/// surfaces stream into memory; `encoded()` returns the finished file's bytes, so the
/// caller decides how a file is written (atomically).
public final class Canvas {
    /// Width in pixels (points for SVG and PDF).
    public let width: Int
    /// Height in pixels (points for SVG and PDF).
    public let height: Int
    /// The surface kind.
    public let format: PictureFormat
    let surface: OpaquePointer
    let context: OpaquePointer
    private let sink = ByteSink()
    private var isFinished = false

    /// Creates a blank canvas of `width` × `height`.
    public init(width: Int, height: Int, format: PictureFormat = .png) throws(PictureError) {
        self.width = width
        self.height = height
        self.format = format
        let made: OpaquePointer?
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        switch format {
        case .png:
            made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        case .svg:
            made = cairo_svg_surface_create_for_stream(appendToSink, closure, Double(width), Double(height))
        case .pdf:
            made = cairo_pdf_surface_create_for_stream(appendToSink, closure, Double(width), Double(height))
        }
        guard let made else { throw .cairo("cannot create a \(width)×\(height) \(format.rawValue) surface") }
        let status = cairo_surface_status(made)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(made)
            throw .cairo("cannot create a \(width)×\(height) \(format.rawValue) surface: \(String(cString: cairo_status_to_string(status)))")
        }
        if format == .pdf {
            // A fixed date, so that the same drawing gives the same file.
            cairo_pdf_surface_set_metadata(made, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
            cairo_pdf_surface_set_metadata(made, CAIRO_PDF_METADATA_CREATOR, "Clumsy")
        }
        surface = made
        context = cairo_create(made)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The finished file: PNG bytes for an image, the whole document for SVG and PDF
    /// (the surface is finished: draw nothing afterwards).
    public func encoded() throws(PictureError) -> [UInt8] {
        try check()
        switch format {
        case .png:
            sink.bytes.removeAll()
            let closure = Unmanaged.passUnretained(sink).toOpaque()
            let status = cairo_surface_write_to_png_stream(surface, appendToSink, closure)
            guard status == CAIRO_STATUS_SUCCESS else { throw .cairo("cannot encode PNG: \(String(cString: cairo_status_to_string(status)))") }
        case .svg, .pdf:
            if !isFinished {
                cairo_surface_finish(surface)
                isFinished = true
            }
            try check()
        }
        return sink.bytes
    }

    /// Raises Cairo's sticky error, if any.
    func check() throws(PictureError) {
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo("drawing failed: \(String(cString: cairo_status_to_string(status)))") }
        let surfaceStatus = cairo_surface_status(surface)
        guard surfaceStatus == CAIRO_STATUS_SUCCESS || surfaceStatus == CAIRO_STATUS_SURFACE_FINISHED else {
            throw .cairo("drawing failed: \(String(cString: cairo_status_to_string(surfaceStatus)))")
        }
    }

    /// Bytes per row of an image canvas (4 × width for ARGB32).
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// Calls `body` with an image canvas's pixels: rows top to bottom, each pixel a native-endian
    /// 32-bit 0xAARRGGBB, that is bytes B, G, R, A on this little-endian machine (ffmpeg's `bgra`).
    public func withPixels<R>(_ body: (UnsafeRawBufferPointer) throws(PictureError) -> R) throws(PictureError) -> R {
        precondition(format == .png, "pixels exist only on image canvases")
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { throw .cairo("the image surface has no pixels") }
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height))
    }

    // MARK: Drawing primitives (pixels, y down)

    func setColour(_ c: Colour) {
        cairo_set_source_rgba(context, c.red, c.green, c.blue, c.alpha)
    }

    /// Fills the whole canvas.
    func clear(_ colour: Colour) {
        setColour(colour)
        cairo_paint(context)
    }

    /// Copies another image canvas onto this one at (0, 0).
    func paint(_ other: Canvas) {
        cairo_set_source_surface(context, other.surface, 0, 0)
        cairo_paint(context)
    }

    func fill(_ box: Rect, _ colour: Colour, cornerRadius: Double = 0) {
        path(box, cornerRadius: cornerRadius)
        setColour(colour)
        cairo_fill(context)
    }

    func stroke(_ box: Rect, _ colour: Colour, width: Double, cornerRadius: Double = 0) {
        path(box, cornerRadius: cornerRadius)
        setColour(colour)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    private func path(_ box: Rect, cornerRadius r: Double) {
        cairo_new_path(context)
        if r <= 0 {
            cairo_rectangle(context, box.minX, box.minY, box.width, box.height)
            return
        }
        let r = min(r, box.width / 2, box.height / 2)
        cairo_arc(context, box.maxX - r, box.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(context, box.maxX - r, box.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(context, box.minX + r, box.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, box.minX + r, box.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    func fillCircle(_ centre: Vector, radius: Double, _ colour: Colour) {
        cairo_new_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * Double.pi)
        setColour(colour)
        cairo_fill(context)
    }

    func strokeCircle(_ centre: Vector, radius: Double, _ colour: Colour, width: Double) {
        cairo_new_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * Double.pi)
        setColour(colour)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    func line(_ a: Vector, _ b: Vector, _ colour: Colour, width: Double, dashed: Bool = false) {
        cairo_new_path(context)
        cairo_move_to(context, a.x, a.y)
        cairo_line_to(context, b.x, b.y)
        setColour(colour)
        cairo_set_line_width(context, width)
        if dashed {
            var dashes = [4.0, 4.0]
            cairo_set_dash(context, &dashes, 2, 0)
        }
        cairo_stroke(context)
        if dashed { cairo_set_dash(context, nil, 0, 0) }
    }

    /// Strokes a polyline through `points` (already in pixels).
    func polyline(_ points: [Vector], _ colour: Colour, width: Double) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(context, p.x, p.y) }
        setColour(colour)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    /// Horizontal placement of text relative to its anchor point.
    enum Alignment { case left, centre, right }

    /// Draws one line of text with its baseline's anchor at `point`, in DejaVu Sans (fontconfig's `sans-serif`).
    func text(_ string: String, at point: Vector, size: Double, _ colour: Colour, alignment: Alignment = .left,
              bold: Bool = false, middle: Bool = false) {
        // Text under 5 px cannot be read (tiny pictures): leave it out rather than smudge.
        guard size >= 5 else { return }
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, string, &extents)
        var x = point.x
        switch alignment {
        case .left: break
        case .centre: x -= extents.x_advance / 2
        case .right: x -= extents.x_advance
        }
        // `middle` centres the text's ink vertically on the point.
        let y = middle ? point.y - (extents.y_bearing + extents.height / 2) : point.y
        cairo_new_path(context)
        cairo_move_to(context, x, y)
        setColour(colour)
        cairo_show_text(context, string)
    }

    /// Advance width of `string` at `size`.
    func textWidth(_ string: String, size: Double, bold: Bool = false) -> Double {
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, string, &extents)
        return extents.x_advance
    }

    /// Restricts drawing to `box` until `unclip()`.
    func clip(_ box: Rect) {
        cairo_save(context)
        cairo_new_path(context)
        cairo_rectangle(context, box.minX, box.minY, box.width, box.height)
        cairo_clip(context)
    }

    func unclip() { cairo_restore(context) }
}
