package store_test

import (
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestContract runs the bench.Service contract on the local file; package remote
// runs the same suite through a team server.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) bench.Service { return db })
}
