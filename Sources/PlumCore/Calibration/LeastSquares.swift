/// Ordinary least squares for the two or three parameters a calibration has.
enum LeastSquares {
    /// Solves min ‖A·x − y‖² through the normal equations with partial pivoting.
    ///
    /// The callers scale their abscissae to about 0 ... 1, which keeps a 3 × 3 normal matrix
    /// well conditioned. Returns `nil` when the columns are (numerically) dependent.
    static func solve(rows: [[Double]], values: [Double]) -> [Double]? {
        guard let width = rows.first?.count, width > 0, rows.count == values.count, rows.count >= width else {
            return nil
        }
        var matrix = Array(repeating: Array(repeating: 0.0, count: width + 1), count: width)
        for (row, value) in zip(rows, values) {
            for i in 0..<width {
                for j in 0..<width { matrix[i][j] += row[i] * row[j] }
                matrix[i][width] += row[i] * value
            }
        }
        let scale = matrix.map { $0[0..<width].map(abs).max() ?? 0 }.max() ?? 0
        guard scale > 0 else { return nil }
        for column in 0..<width {
            guard let pivot = (column..<width).max(by: { abs(matrix[$0][column]) < abs(matrix[$1][column]) }),
                abs(matrix[pivot][column]) > scale * 1e-12
            else { return nil }
            matrix.swapAt(column, pivot)
            for row in 0..<width where row != column {
                let factor = matrix[row][column] / matrix[column][column]
                for j in column...width { matrix[row][j] -= factor * matrix[column][j] }
            }
        }
        return (0..<width).map { matrix[$0][width] / matrix[$0][$0] }
    }
}
