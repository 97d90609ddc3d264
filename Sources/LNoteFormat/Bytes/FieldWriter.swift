/// The field writes of G-001 .. G-006 that both writers provide: `ByteWriter` (a growing
/// array) and `RawByteWriter` (memory sized beforehand). Code that writes the same fields
/// into either (the element head, `ElementCodec.encodeFields`) is written once against it;
/// each call site is specialized for its writer.
package protocol FieldWriter {
    mutating func u8(_ v: UInt8)
    mutating func f32(_ v: Float)
    mutating func varint(_ value: UInt64)
    mutating func svarint(_ value: Int64)
    mutating func string(_ s: String)
    mutating func uuid(_ u: UUIDBytes)
}

extension ByteWriter: FieldWriter {}
extension RawByteWriter: FieldWriter {}
