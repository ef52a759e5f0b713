//go:build ignore

// Run by `go generate ./remote`: writes remote/calls_gen.go and
// store/session_gen.go from bench/service.go.
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
	for file, generate := range map[string]func([]byte) ([]byte, error){
		"calls_gen.go":            gencalls.Generate,
		"../store/session_gen.go": gencalls.GenerateStore,
	} {
		out, err := generate(src)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(file, out, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
