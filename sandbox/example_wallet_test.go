package sandbox_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/walletauth"
)

// Example_otpLogin logs in to a customer's embedded wallet with its email
// OTP, as an app does: the challenge gives an HPKE target bundle, the app
// seals the code (000000 in the sandbox) with the public half of a key it
// made, signs the payload it gets back with that key, and the signed retry
// opens the session. The key then signs wallet actions.
func Example_otpLogin() {
	srv, err := sandbox.StartServer()
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	_ = srv.Call("PATCH", "/config", map[string]any{"embeddedWalletConfig": map[string]any{"appName": "Acme Wallet"}}, nil)
	id, _ := onboard(srv, "Jane Doe", func(b map[string]any) { b["email"] = "jane@example.com" })

	var wallets struct{ Data []struct{ ID string } }
	_ = srv.Call("GET", "/customers/internal-accounts?type=EMBEDDED_WALLET&customerId="+id, nil, &wallets)
	wallet := wallets.Data[0].ID
	var creds struct {
		Data []struct{ ID, Type, Nickname string }
	}
	_ = srv.Call("GET", "/auth/credentials?accountId="+wallet, nil, &creds)
	cred := creds.Data[0]
	fmt.Println("credential:", cred.Type, cred.Nickname)

	// 1. A challenge: the code goes to the email; the answer carries the
	// target bundle to seal the attempt to.
	var ch struct{ OtpEncryptionTargetBundle string }
	_ = srv.Call("POST", "/auth/credentials/"+cred.ID+"/challenge", nil, &ch)
	// 2. The attempt, sealed with HPKE, names the app's key; the answer is
	// the payload that key must sign.
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, _ := walletauth.CompressedKey(&key.PublicKey)
	bundle, _ := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: payments.SandboxOTPCode, PublicKey: pub})
	verify := map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": bundle}
	var pending struct{ PayloadToSign, RequestID string }
	_ = srv.Call("POST", "/auth/credentials/"+cred.ID+"/verify", verify, &pending)
	// 3. The signed retry opens the session.
	stamp, _ := walletauth.SignStamp(key, []byte(pending.PayloadToSign))
	var session struct{ ID string }
	err = srv.Call("POST", "/auth/credentials/"+cred.ID+"/verify", verify, &session,
		"Service-Wallet-Signature", stamp, "Request-Id", pending.RequestID)
	fmt.Println("session:", err == nil && strings.HasPrefix(session.ID, "Session:"))

	// The session's key signs wallet actions, each a call answered with a
	// payload to sign and the same call repeated with the stamp.
	private := map[string]any{"privateEnabled": true}
	_ = srv.Call("PATCH", "/internal-accounts/"+wallet, private, &pending)
	stamp, _ = walletauth.SignStamp(key, []byte(pending.PayloadToSign))
	var acct struct{ PrivateEnabled bool }
	_ = srv.Call("PATCH", "/internal-accounts/"+wallet, private, &acct,
		"Service-Wallet-Signature", stamp, "Request-Id", pending.RequestID)
	fmt.Println("private:", acct.PrivateEnabled)
	// Output:
	// credential: EMAIL_OTP jane@example.com
	// session: true
	// private: true
}
