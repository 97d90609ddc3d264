// Apps that `import LNoteStore` also see the element model (Stroke, Point, Element, ...)
// and the format types they are written in.
@_exported import LNoteFormat
