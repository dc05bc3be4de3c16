// Command genaliases writes aliases.go, the root package's re-exports,
// from internal/genaliases/aliases.txt: go generate in the module root
// runs it (doc.go). With -check it writes nothing and fails when
// aliases.go is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/paygrid/payments/internal/genaliases"
)

func main() {
	check := flag.Bool("check", false, "fail when aliases.go differs from what would be written; write nothing")
	flag.Parse()
	out, err := genaliases.Generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "genaliases:", err)
		os.Exit(1)
	}
	if *check {
		cur, err := os.ReadFile("aliases.go")
		if err != nil || !bytes.Equal(cur, out) {
			fmt.Fprintln(os.Stderr, "genaliases: aliases.go is stale; run go generate in the module root")
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile("aliases.go", out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genaliases:", err)
		os.Exit(1)
	}
}
