// `os.log`: logging is declared by the `os` Swift overlay (Sources/os).
