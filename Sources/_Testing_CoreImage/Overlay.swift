// Swift Testing on Linux declares a cross-import overlay for Apple's CoreImage (attachments of
// its images), but ships no such module. A test file that imports both Testing and our CoreImage
// looks for _Testing_CoreImage and fails without one. This empty module answers that lookup.
