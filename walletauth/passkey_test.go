package walletauth_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/walletauth/passkeytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const origin = "http://localhost:8080"

var rp = walletauth.RelyingParty{ID: "localhost", Origins: []string{origin}}

// registered returns an authenticator and its verified registration.
func registered(t *testing.T) (*passkeytest.Authenticator, walletauth.Passkey) {
	t.Helper()
	a := passkeytest.New("localhost")
	p, err := rp.Register([]byte("register-challenge"), a.Create([]byte("register-challenge"), origin))
	require.NoError(t, err)
	return a, p
}

func TestPasskeyRegistersAndAsserts(t *testing.T) {
	a, p := registered(t)
	assert.Equal(t, a.CredentialID(), p.IDString())
	assert.Equal(t, []string{"internal"}, p.Transports)
	for want := uint32(1); want <= 3; want++ {
		n, err := rp.Assert(p, []byte("login"), a.Get([]byte("login"), origin))
		require.NoError(t, err)
		assert.Equal(t, want, n)
		p.SignCount = n
	}
}

func TestPasskeyRegistrationRefusals(t *testing.T) {
	cases := map[string]func(a *passkeytest.Authenticator) walletauth.Attestation{
		"other challenge": func(a *passkeytest.Authenticator) walletauth.Attestation {
			return a.Create([]byte("another"), origin)
		},
		"other origin": func(a *passkeytest.Authenticator) walletauth.Attestation {
			return a.Create([]byte("c"), "https://evil.example")
		},
		"no user verification": func(a *passkeytest.Authenticator) walletauth.Attestation {
			a.Flags = passkeytest.FlagUserPresent
			return a.Create([]byte("c"), origin)
		},
		"other credential id": func(a *passkeytest.Authenticator) walletauth.Attestation {
			att := a.Create([]byte("c"), origin)
			att.CredentialID = passkeytest.New("localhost").CredentialID()
			return att
		},
		"not base64": func(a *passkeytest.Authenticator) walletauth.Attestation {
			att := a.Create([]byte("c"), origin)
			att.AttestationObject = "%%%"
			return att
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := rp.Register([]byte("c"), build(passkeytest.New("localhost")))
			require.ErrorIs(t, err, walletauth.ErrPasskey)
		})
	}
	_, err := rp.Register([]byte("c"), passkeytest.New("example.com").Create([]byte("c"), origin))
	require.ErrorIs(t, err, walletauth.ErrPasskey, "an authenticator bound to another RP ID")
}

func TestPasskeyAssertionRefusals(t *testing.T) {
	cases := map[string]func(a *passkeytest.Authenticator) walletauth.Assertion{
		"other challenge": func(a *passkeytest.Authenticator) walletauth.Assertion {
			return a.Get([]byte("another"), origin)
		},
		"other origin": func(a *passkeytest.Authenticator) walletauth.Assertion {
			return a.Get([]byte("c"), "https://evil.example")
		},
		"no user presence": func(a *passkeytest.Authenticator) walletauth.Assertion {
			a.Flags = passkeytest.FlagUserVerified
			return a.Get([]byte("c"), origin)
		},
		"tampered signature": func(a *passkeytest.Authenticator) walletauth.Assertion {
			as := a.Get([]byte("c"), origin)
			other := a.Get([]byte("d"), origin)
			as.Signature = other.Signature
			return as
		},
		"signed by another key": func(a *passkeytest.Authenticator) walletauth.Assertion {
			as := passkeytest.New("localhost").Get([]byte("c"), origin)
			as.CredentialID = a.CredentialID()
			return as
		},
		"other credential": func(a *passkeytest.Authenticator) walletauth.Assertion {
			return passkeytest.New("localhost").Get([]byte("c"), origin)
		},
		"missing signature": func(a *passkeytest.Authenticator) walletauth.Assertion {
			as := a.Get([]byte("c"), origin)
			as.Signature = ""
			return as
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			a, p := registered(t)
			_, err := rp.Assert(p, []byte("c"), build(a))
			require.ErrorIs(t, err, walletauth.ErrPasskey)
		})
	}
}

func TestPasskeyZeroCounterAuthenticators(t *testing.T) {
	a, p := registered(t)
	a.StuckCounter = true // always sends 0, as synced passkeys do
	for range 2 {
		n, err := rp.Assert(p, []byte("c"), a.Get([]byte("c"), origin))
		require.NoError(t, err)
		assert.Zero(t, n)
	}
	p.SignCount = 5
	_, err := rp.Assert(p, []byte("c"), a.Get([]byte("c"), origin))
	require.ErrorIs(t, err, walletauth.ErrPasskey, "zero after a counter was seen is a clone")
}

func TestPasskeyCounterMustAdvance(t *testing.T) {
	a, p := registered(t)
	n, err := rp.Assert(p, []byte("c"), a.Get([]byte("c"), origin))
	require.NoError(t, err)
	p.SignCount = n
	a.StuckCounter = true
	_, err = rp.Assert(p, []byte("c"), a.Get([]byte("c"), origin))
	require.ErrorIs(t, err, walletauth.ErrPasskey, "a replayed counter is a clone")
}

// FuzzPasskeyAssert feeds arbitrary assertion fields to the verifier: it
// must refuse with ErrPasskey, never panic, and never accept a forgery.
func FuzzPasskeyAssert(f *testing.F) {
	a := passkeytest.New("localhost")
	p, err := rp.Register([]byte("c"), a.Create([]byte("c"), origin))
	if err != nil {
		f.Fatal(err)
	}
	good := a.Get([]byte("c"), origin)
	f.Add(good.CredentialID, good.ClientDataJSON, good.AuthenticatorData, good.Signature)
	f.Add(good.CredentialID, "e30", "AAAA", "MEUCIQ")
	f.Fuzz(func(t *testing.T, id, cdj, auth, sig string) {
		as := walletauth.Assertion{CredentialID: id, ClientDataJSON: cdj, AuthenticatorData: auth, Signature: sig}
		if as == good {
			return
		}
		_, err := rp.Assert(p, []byte("c"), as)
		if err == nil && as.Signature != good.Signature {
			t.Fatalf("accepted an assertion with another signature: %+v", as)
		}
		if err != nil && !errors.Is(err, walletauth.ErrPasskey) {
			t.Fatalf("error %v does not wrap ErrPasskey", err)
		}
	})
}

// Every refusal names the check that failed, so that a client learns
// whether its origin, its challenge, its relying party or its signature was
// wrong.
func TestPasskeyRefusalsNameTheCheck(t *testing.T) {
	register := map[string]struct {
		att  func() walletauth.Attestation
		want string
	}{
		"origin": {func() walletauth.Attestation {
			return passkeytest.New("localhost").Create([]byte("c"), "http://localhost:5173")
		},
			"the passkey's origin http://localhost:5173 is not one of the relying party's origins (" + origin + ")"},
		"challenge": {func() walletauth.Attestation { return passkeytest.New("localhost").Create([]byte("other"), origin) },
			"challenge is not the challenge of this ceremony"},
		"rp id": {func() walletauth.Attestation { return passkeytest.New("example.com").Create([]byte("c"), origin) },
			`RP ID hash is not that of the relying party ID "localhost"`},
		"user verification": {func() walletauth.Attestation {
			a := passkeytest.New("localhost")
			a.Flags = passkeytest.FlagUserPresent
			return a.Create([]byte("c"), origin)
		}, "did not report user verification"},
	}
	for name, tc := range register {
		t.Run("register "+name, func(t *testing.T) {
			_, err := rp.Register([]byte("c"), tc.att())
			require.ErrorIs(t, err, walletauth.ErrPasskey)
			var pe *walletauth.PasskeyError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, pe.Reason, tc.want)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assertions := map[string]struct {
		as   func(a *passkeytest.Authenticator) walletauth.Assertion
		want string
	}{
		"origin": {func(a *passkeytest.Authenticator) walletauth.Assertion {
			return a.Get([]byte("c"), "https://evil.example")
		},
			"the passkey's origin https://evil.example is not one of the relying party's origins"},
		"challenge": {func(a *passkeytest.Authenticator) walletauth.Assertion { return a.Get([]byte("d"), origin) },
			"challenge is not the challenge of this ceremony"},
		"user presence": {func(a *passkeytest.Authenticator) walletauth.Assertion {
			a.Flags = passkeytest.FlagUserVerified
			return a.Get([]byte("c"), origin)
		}, "did not report user presence"},
		"signature": {func(a *passkeytest.Authenticator) walletauth.Assertion {
			as := a.Get([]byte("c"), origin)
			as.Signature = a.Get([]byte("d"), origin).Signature
			return as
		}, "signature does not verify"},
	}
	for name, tc := range assertions {
		t.Run("assert "+name, func(t *testing.T) {
			a, p := registered(t)
			_, err := rp.Assert(p, []byte("c"), tc.as(a))
			require.ErrorIs(t, err, walletauth.ErrPasskey)
			var pe *walletauth.PasskeyError
			require.ErrorAs(t, err, &pe)
			require.Contains(t, pe.Reason, tc.want)
		})
	}
}
