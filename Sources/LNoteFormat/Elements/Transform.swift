/// An affine map `(x', y') = (a x + c y + tx, b x + d y + ty)`, stored as 6 x f32 (section 6.3).
public struct Transform: Equatable, Hashable, Sendable {
    /// The linear part, unitless (`affine` gives every value in app units).
    public var a: Float, b: Float, c: Float, d: Float
    /// The translation in 0.1 pt (stored units; `affine` gives it in pt).
    package var tx: Float, ty: Float

    /// A transform in stored units; `Transform.affine(a:b:c:d:tx:ty:)` takes `tx`, `ty` in pt.
    package init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// No change.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A move by `dx`, `dy` in 0.1 pt (stored units); apps use `translation(x:y:)` in pt.
    package static func translation(_ dx: Float, _ dy: Float) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// All six values are finite (E-010).
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// Maps a point in stored units (0.1 pt); `applying(x:y:)` maps pt.
    package func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (Double(a) * x + Double(c) * y + Double(tx), Double(b) * x + Double(d) * y + Double(ty))
    }
}
