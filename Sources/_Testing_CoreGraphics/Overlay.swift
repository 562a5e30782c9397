// Swift Testing on Linux declares a cross-import overlay for Apple's CoreGraphics (attachments of
// its images), but ships no such module. A test file that imports both Testing and our CoreGraphics
// looks for _Testing_CoreGraphics and fails without one. This empty module answers that lookup.
