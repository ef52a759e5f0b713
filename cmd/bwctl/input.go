package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// The most bwctl reads from one input file. A dataset or reliability file is
// megabytes; /dev/zero or a runaway pipe must meet a limit it names instead of
// filling memory.
const (
	maxDatasetBytes = 256 << 20 // import-samples: a whole dataset file
	maxTableBytes   = 256 << 20 // alpha: a reliability-data CSV
	maxRecordBytes  = 16 << 20  // review --correct: one record
	maxCSVLineBytes = 16 << 20  // alpha: one coder's row
)

// errTooLarge is the refusal of an input over its limit.
var errTooLarge = errors.New("input too large")

// readInput reads the file at path whole, refusing one over max bytes by name.
func readInput(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(capped(f, path, max))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// capped reads r and fails with errTooLarge, naming path and the limit, once
// more than max bytes came through.
func capped(r io.Reader, path string, max int64) io.Reader {
	return &cappedReader{r: r, path: path, max: max}
}

type cappedReader struct {
	r         io.Reader
	path      string
	max, read int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.read > c.max {
		return 0, fmt.Errorf("%w: %s holds more than %d MiB, the most bwctl reads from one file", errTooLarge, c.path, c.max>>20)
	}
	if left := c.max + 1 - c.read; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	if c.read > c.max {
		return n, fmt.Errorf("%w: %s holds more than %d MiB, the most bwctl reads from one file", errTooLarge, c.path, c.max>>20)
	}
	return n, err
}

// lineCapped reads r and fails, naming path, once a line runs past max bytes
// without a line break (the CSV reader would hold the whole line).
func lineCapped(r io.Reader, path string, max int) io.Reader {
	return &lineCappedReader{r: r, path: path, max: max}
}

type lineCappedReader struct {
	r        io.Reader
	path     string
	max, run int // run: bytes since the last '\n'
}

func (l *lineCappedReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.run = 0
		} else if l.run++; l.run > l.max {
			return n, fmt.Errorf("%w: %s has a line longer than %d MiB", errTooLarge, l.path, l.max>>20)
		}
	}
	return n, err
}
