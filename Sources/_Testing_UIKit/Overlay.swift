// Swift Testing on Linux declares a cross-import overlay for Apple's UIKit (attachments of
// its images), but ships no such module. A test file that imports both Testing and our UIKit
// looks for _Testing_UIKit and fails without one. This empty module answers that lookup.
