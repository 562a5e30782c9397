// `import OSLog` (iOS 14 and later) brings `Logger`, `OSLog`, `OSLogType` and `os_log`: the `os`
// module's logging, under the framework name Apple's newer samples import.
@_exported import os
