/// Which loop encodes or decodes a stroke's points (`PointEncodeLoop.Kind`,
/// `PointDecodeLoop.Kind`): the Swift loop alone, with the C bulk loop (the CPU's best build
/// of it), or with the C loop's baseline build (a test hook: on x86-64 the default runs the
/// SSE4.1 build where the CPU has it). Every kind gives the same bytes and points (the
/// differential tests and the point fuzz target check it).
package enum PointLoopKind: Sendable { case swift, bulk, bulkBaseline }
