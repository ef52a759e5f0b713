package annotate

import (
	"io/fs"
	"testing"
)

// The import's reason for an entry it does not read, as people see it in its
// list of skipped files.
func TestNotAFileReason(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want string
	}{
		{fs.ModeSymlink | 0o777, "a symbolic link: Benchwright imports the files themselves (import the folder it points to)"},
		{fs.ModeDir | 0o755, "a folder, not an image file"},
		{fs.ModeNamedPipe, "a named pipe, not an image file"},
		{fs.ModeSocket, "a socket, not an image file"},
		{fs.ModeDevice, "a device, not an image file"},
		{fs.ModeIrregular, "not a regular file"},
	}
	for _, tt := range tests {
		if got := NotAFileReason(tt.mode); got != tt.want {
			t.Errorf("NotAFileReason(%v) = %q, want %q", tt.mode, got, tt.want)
		}
	}
}
