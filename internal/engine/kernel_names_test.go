package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// areaWords are the words that name an area of the engine (ARCHITECTURE.md).
// The ledger's accounts and the platform's own owner key are the kernel's
// vocabulary, so "account" and "platform" are not among them.
var areaWords = map[string]bool{
	"customer": true, "customers": true, "kyc": true, "kyb": true, "sca": true,
	"quote": true, "quotes": true, "transfer": true, "invitation": true, "invitations": true,
	"card": true, "cards": true, "cardholder": true, "stablecoin": true, "stablecoins": true,
	"agent": true, "agents": true, "wallet": true, "wallets": true, "passkey": true,
	"rail": true, "rails": true, "payout": true, "settlement": true,
}

// sharedCodes are the kernel's error codes that name an area: each is
// returned by several areas (CUSTOMER_NOT_FOUND by agents, cards,
// customers and quotes; QUOTE_* by agents and quotes; the passkey one by
// customers and wallets; WALLET_SIGNATURE_MISSING by quotes and wallets).
var sharedCodes = map[string]bool{
	"CodeCustomerNotFound": true, "CodeQuoteExpired": true, "CodeQuoteNotFound": true,
	"CodeQuoteRateUnavailable": true, "CodePasskeyAlreadyEnrolled": true, "CodeWalletSignatureMissing": true,
}

// TestKernel_NamesNoArea keeps the kernel generic: no identifier of its
// non-test files (declared or used) names an area. The areas register
// their tables, due work, intents and hooks through New; a kernel that
// needed an area's name would be back to knowing every area. An error
// code one area returns lives in that area (AreaDef.Codes); the few codes
// several areas return stay in codes.go, and those are named here.
func TestKernel_NamesNoArea(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		seen := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			if name == "codes.go" && sharedCodes[id.Name] {
				return true
			}
			for _, w := range words(id.Name) {
				if areaWords[w] {
					t.Errorf("%s: %s names an area (%q)", name, id.Name, w)
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked only %d files", checked)
	}
}

// words splits a Go identifier into its lower-cased words
// (TableCustomers: table, customers; ixKYC: ix, kyc).
func words(id string) []string {
	var out []string
	var cur []rune
	rs := []rune(id)
	for i, r := range rs {
		boundary := r == '_' || (unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))))
		if boundary && len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = nil
		}
		if r != '_' {
			cur = append(cur, r)
		}
	}
	if len(cur) > 0 {
		out = append(out, strings.ToLower(string(cur)))
	}
	return out
}
