package annotate

import "io/fs"

// FileKind names the type of a file that is not a regular file, for a finding or
// a skip reason: "a symbolic link", "a named pipe", "a socket", "a device", "a folder".
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// NotAFileReason says why an import does not read a directory entry that is not
// a regular file: its kind (FileKind), and for a symbolic link what to import
// instead.
func NotAFileReason(m fs.FileMode) string {
	kind := FileKind(m)
	switch {
	case m&fs.ModeSymlink != 0:
		return kind + ": Benchwright imports the files themselves (import the folder it points to)"
	case kind == "not a regular file":
		return kind
	}
	return kind + ", not an image file"
}
