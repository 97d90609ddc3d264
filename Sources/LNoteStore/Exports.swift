// What `import LNoteStore` gives an app from the format module: the element model and the
// values the engine's API speaks in. The format's codecs, scanners, limits and byte readers
// are for the engine and tools, which `import LNoteFormat` themselves.
@_exported import struct LNoteFormat.Stroke
@_exported import struct LNoteFormat.Point
@_exported import struct LNoteFormat.InputPoint
@_exported import struct LNoteFormat.Ink
@_exported import struct LNoteFormat.Transform
@_exported import struct LNoteFormat.ImageElement
@_exported import enum LNoteFormat.Element
@_exported import struct LNoteFormat.PageMetadata
@_exported import enum LNoteFormat.PageChange
@_exported import struct LNoteFormat.PageState
@_exported import struct LNoteFormat.ApplyNote
@_exported import struct LNoteFormat.PagePoints
@_exported import struct LNoteFormat.DecodeError
@_exported import enum LNoteFormat.ReplayMode
@_exported import enum LNoteFormat.PointDecoding
