package walletauth_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/walletauth"
)

// The signature decoders must refuse garbage without panicking, and never
// accept a signature for an unrelated key.

func FuzzVerifyEIP191(f *testing.F) {
	f.Add("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23", "Some data",
		"0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c")
	f.Add("0x00", "", "0x")
	f.Fuzz(func(t *testing.T, addr, msg, sig string) {
		if walletauth.VerifyEIP191(addr, []byte(msg), sig) == nil && len(addr) != 42 {
			t.Fatalf("accepted a signature for address %q", addr)
		}
	})
}

func FuzzVerifyBitcoinAndSolana(f *testing.F) {
	f.Add([]byte{2, 1, 2, 3}, "msg", "H0xp9i+3Q2uJ3XdsgRB3t6bWcB3bkN2aRjV1jUoKXIQqKLO8T1iYz+3y0jH2ZRO/QJ9Pdj6jMTvGVw4P2pW6H7w=")
	f.Add([]byte{}, "", "")
	f.Fuzz(func(t *testing.T, pub []byte, msg, sig string) {
		if walletauth.VerifyBitcoinKey(pub, []byte(msg), sig, walletauth.SchemeBIP137) == nil && len(pub) != 33 {
			t.Fatalf("accepted a signature for a %d-byte key", len(pub))
		}
		if walletauth.VerifyBitcoinKey(pub, []byte(msg), sig, walletauth.SchemeElectrum) == nil && len(pub) != 33 {
			t.Fatalf("accepted an Electrum signature for a %d-byte key", len(pub))
		}
		_ = walletauth.VerifySolana(string(pub), []byte(msg), sig)
	})
}

// The stamp parser either refuses a header or returns a stamp whose key is a
// valid compressed point, and never panics.
func FuzzParseStamp(f *testing.F) {
	f.Add("eyJwdWJsaWNLZXkiOiIwMzYwZmVkNGJhMjU1YTlkMzFjOTYxZWI3NGM2MzU2ZDY4YzA0OWI4OTIzYjYxZmE2Y2U2Njk2MjJlNjBmMjlmYjYiLCJzY2hlbWUiOiJTSUdOQVRVUkVfU0NIRU1FX1RLX0FQSV9QMjU2Iiwic2lnbmF0dXJlIjoiMzA0NTAyMjEwMGVkOGM0Y2UxOGRhMTlhNmE1ZTRmNGY5MjczZDkwNGZkZGNjZjhlZWRmNmYzNTkwODI1MjE3NjUwZTQ0NWUwNTIwMjIwN2IyOTMxZWIwNzJjM2Y5NDExN2ZjNDgyZWRlMmRhY2E4ZWI2Y2I4MmFiNDM5YjBiZGRiMGY5YTk4NGUyZTFlMiJ9")
	f.Add("")
	f.Add("e30")
	f.Fuzz(func(t *testing.T, h string) {
		s, err := walletauth.ParseStamp(h)
		if err != nil {
			return
		}
		if _, compressed, err := walletauth.ParsePublicKey(s.PublicKey); err != nil || !compressed {
			t.Fatalf("accepted a stamp with key %q", s.PublicKey)
		}
		_ = s.Verify([]byte(h))
	})
}

// The bundle decoder refuses anything that was not sealed to the key.
func FuzzOpenOTP(f *testing.F) {
	key, _ := walletauth.NewTargetKey()
	f.Add(`{"encappedPublic":"04d43d8b1047a31552990052e4c4167ab484d29260621556bef62900475db03032f189b4ccc55edc75194cef9a1c4989c853c93a0665114c33111bf3716a62ab3b","ciphertext":"43d331fa67339b3464b0d76dd023e5d13d1a44bd5afb52d2329ec19f1b8b5e7f909b3533260bc8c485c8ea605ce7c1c3244f52f71177"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, b string) {
		if _, err := walletauth.OpenOTP(key, b); err == nil {
			t.Fatalf("opened a bundle not sealed to the key: %q", b)
		}
		_, _ = walletauth.OpenExport(key, b)
		_, _ = walletauth.ParseTargetBundle(b)
	})
}

// The OIDC checks never panic, and accept only tokens with every claim the
// sandbox requires.
func FuzzCheckOIDC(f *testing.F) {
	f.Add("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20iLCJzdWIiOiJ1IiwiYXVkIjoiYSIsImlhdCI6MTc3NTY2MjIwMCwiZXhwIjoxNzc1NjY1ODAwfQ.sig")
	f.Add("a.b.c")
	f.Fuzz(func(t *testing.T, tok string) {
		now := time.Unix(1775662210, 0)
		id, err := walletauth.CheckOIDC(tok, now, "")
		if err == nil && (id.Subject == "" || id.Audience == "" || id.Issuer == "") {
			t.Fatalf("accepted %q with identity %+v", tok, id)
		}
	})
}
