// The `os` Clang module has no C declarations here; Sources/os is its Swift overlay.
