import Foundation

/// Turns polygons in pixel space into the runs of pixels inside them, row by row: a pixel is
/// inside when its centre is (no anti-aliasing).
enum PathRasterizer {
    private struct Edge {
        var top: CGPoint
        var bottom: CGPoint
        var direction: Int
    }

    /// Calls `span(row, firstColumn, endColumn)` for each run of pixels inside `polygons` by
    /// `rule`, clipped to `width` x `height`.
    static func forEachSpan(of polygons: [[CGPoint]], rule: CGPathFillRule, width: Int, height: Int,
                            _ span: (Int, Int, Int) -> Void) {
        var edges: [Edge] = []
        for polygon in polygons where polygon.count > 2 {
            for (start, end) in zip(polygon, polygon.dropFirst() + [polygon[0]]) where start.y != end.y {
                edges.append(start.y < end.y ? Edge(top: start, bottom: end, direction: 1) : Edge(top: end, bottom: start, direction: -1))
            }
        }
        guard let minY = edges.map(\.top.y).min(), let maxY = edges.map(\.bottom.y).max() else { return }
        edges.sort { $0.top.y < $1.top.y }
        let firstRow = max(0, Int((minY - 0.5).rounded(.up))), endRow = min(height, Int((maxY - 0.5).rounded(.up)) + 1)
        guard firstRow < endRow else { return }
        var crossings: [(x: CGFloat, direction: Int)] = []
        for row in firstRow..<endRow {
            let centre = CGFloat(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for edge in edges {
                if edge.top.y > centre { break }
                guard centre < edge.bottom.y else { continue }
                let x = edge.top.x + (centre - edge.top.y) / (edge.bottom.y - edge.top.y) * (edge.bottom.x - edge.top.x)
                crossings.append((x, edge.direction))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for (index, crossing) in crossings.enumerated().dropLast() {
                winding += crossing.direction
                guard rule == .winding ? winding != 0 : winding % 2 != 0 else { continue }
                let first = max(0, Int((crossing.x - 0.5).rounded(.up)))
                let end = min(width, Int((crossings[index + 1].x - 0.5).rounded(.up)))
                if first < end { span(row, first, end) }
            }
        }
    }

    /// The quadrilaterals that make up the outline of `polygon` drawn `lineWidth` wide, each
    /// wound the same way, so that they fill as one shape by the winding rule.
    static func strokeOutline(of polygon: [CGPoint], closed: Bool, lineWidth: CGFloat) -> [[CGPoint]] {
        let half = max(lineWidth, 1) / 2
        let ends = closed && polygon.count > 2 ? polygon + [polygon[0]] : polygon
        var quads: [[CGPoint]] = []
        for (start, end) in zip(ends, ends.dropFirst()) {
            let length = hypot(end.x - start.x, end.y - start.y)
            guard length > 0 else { continue }
            let normal = CGPoint(x: -(end.y - start.y) / length * half, y: (end.x - start.x) / length * half)
            // Each segment is extended by half the width at both ends, so that corners are filled.
            let along = CGPoint(x: (end.x - start.x) / length * half, y: (end.y - start.y) / length * half)
            let from = CGPoint(x: start.x - along.x, y: start.y - along.y), to = CGPoint(x: end.x + along.x, y: end.y + along.y)
            quads.append([CGPoint(x: from.x + normal.x, y: from.y + normal.y), CGPoint(x: to.x + normal.x, y: to.y + normal.y),
                          CGPoint(x: to.x - normal.x, y: to.y - normal.y), CGPoint(x: from.x - normal.x, y: from.y - normal.y)])
        }
        return quads
    }
}
