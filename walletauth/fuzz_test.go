package walletauth_test

import (
	"testing"

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
