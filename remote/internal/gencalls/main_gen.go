//go:build ignore

// Run by `go generate ./remote`: writes remote/calls_gen.go from bench/service.go.
package main

import (
	"log"
	"os"

	"github.com/benchwright/benchwright/remote/internal/gencalls"
)

func main() {
	src, err := os.ReadFile("../bench/service.go")
	if err != nil {
		log.Fatal(err)
	}
	out, err := gencalls.Generate(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("calls_gen.go", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
