/// An affine map `(x', y') = (a x + c y + tx, b x + d y + ty)`, stored as 6 x f32 (section 6.3).
public struct Transform: Equatable, Hashable, Sendable {
    public var a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float

    public init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ dx: Float, _ dy: Float) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// All six values are finite (E-010).
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (Double(a) * x + Double(c) * y + Double(tx), Double(b) * x + Double(d) * y + Double(ty))
    }
}
