/// Which loop encodes or decodes a stroke's points (`PointEncodeLoop.Kind`,
/// `PointDecodeLoop.Kind`): the Swift loop alone, with the C bulk loop (the CPU's best build
/// of it), or with the C loop's baseline build (a test hook: on x86-64 the default runs the
/// SSE4.1 build where the CPU has it, the decoder the AVX2 build where it has that, and the
/// encoder the AVX-512 build where it has AVX-512 VL, BW and VBMI). `bulkNarrow`, a test hook,
/// is the C loop's 128-bit build (SSE4.1 where the CPU has it) even where a wider one runs.
/// `bulkAVX2`, a test hook of the decoder, is the C loop's AVX2 build without its AVX-512 block
/// (the default on a CPU with AVX-512 VL, BW and VBMI); the encoder takes it as `bulkNarrow`.
/// Every kind gives the same bytes and points (the differential tests and the point fuzz
/// target check it).
package enum PointLoopKind: Sendable { case swift, bulk, bulkBaseline, bulkNarrow, bulkAVX2 }
