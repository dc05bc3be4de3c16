package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/webhooks"
)

// account is the part of an internal account the examples read.
type account struct {
	ID      string `json:"id"`
	Balance struct {
		Amount int64 `json:"amount"`
	} `json:"balance"`
}

// onboard creates a customer named name and returns its id and USD
// account.
func onboard(srv *sandbox.Server, name string, mutate ...func(map[string]any)) (string, account) {
	body := customerBody(name)
	for _, m := range mutate {
		m(body)
	}
	var c struct {
		ID string `json:"id"`
	}
	if err := srv.Call("POST", "/customers", body, &c); err != nil {
		panic(err)
	}
	return onboardedAccount(srv, c.ID)
}

// onboardedAccount returns customer id and its USD account.
func onboardedAccount(srv *sandbox.Server, id string) (string, account) {
	var accts struct{ Data []account }
	if err := srv.Call("GET", "/customers/internal-accounts?currency=USD&customerId="+id, nil, &accts); err != nil {
		panic(err)
	}
	return id, accts.Data[0]
}

// ExampleStartServer tests a service against an in-process sandbox: the
// whole API on a local address, a token, a clock that moves only when told
// to, and a receiver that verifies the platform's webhooks. In a test,
// sandbox.NewServer(t) does the same and closes it when the test ends.
func ExampleStartServer() {
	srv, err := sandbox.StartServer()
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	// Your service would call srv.BaseURL with srv.ClientID and
	// srv.ClientSecret; Call does it for the example.
	var clock struct {
		Now    string `json:"now"`
		Frozen bool   `json:"frozen"`
	}
	_ = srv.Call("GET", "/sandbox/clock", nil, &clock)
	fmt.Println("clock:", clock.Now, "frozen:", clock.Frozen)
	_ = srv.Call("POST", "/sandbox/clock/advance", map[string]any{"duration": "48h"}, &clock)
	fmt.Println("two days later:", clock.Now)
	// Output:
	// clock: 2025-10-13T12:00:00Z frozen: true
	// two days later: 2025-10-15T12:00:00Z
}

// Example_onboardAndVerify creates a customer, uploads an identity
// document and submits the customer for verification (on an unregulated
// platform a submission without the document answers RESOLVE_ERRORS
// naming it).
func Example_onboardAndVerify() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()

	id, _ := onboard(srv, "Jane Doe", func(b map[string]any) {
		b["email"], b["phoneNumber"], b["idType"], b["identifier"] = "jane@example.com", "+14155550123", "SSN", "123-45-6789"
	})
	var c struct{ KycStatus string }
	_ = srv.Call("GET", "/customers/"+id, nil, &c)
	fmt.Println("customer:", c.KycStatus)

	// Documents are multipart uploads.
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	_ = form.WriteField("documentHolder", id)
	_ = form.WriteField("documentType", "PASSPORT")
	_ = form.WriteField("country", "US")
	file, _ := form.CreateFormFile("file", "passport.png")
	_, _ = file.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	_ = form.Close()
	req, _ := http.NewRequest("POST", srv.BaseURL+"/documents", &body)
	req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
	req.Header.Set("Content-Type", form.FormDataContentType())
	res, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println("document:", res.Status)

	var v struct{ VerificationStatus string }
	_ = srv.Call("POST", "/verifications", map[string]any{"customerId": id}, &v)
	_ = srv.Call("GET", "/customers/"+id, nil, &c)
	fmt.Println("verification:", v.VerificationStatus, "customer:", c.KycStatus)
	// Output:
	// customer: UNVERIFIED
	// document: 201 Created
	// verification: APPROVED customer: APPROVED
}

// Example_fund funds a customer's account in the sandbox and shows the
// webhooks of the deposit: its INCOMING transaction's and the balance's.
func Example_fund() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()

	_, usd := onboard(srv, "Jane Doe")
	if err := srv.Call("POST", "/sandbox/internal-accounts/"+usd.ID+"/fund", map[string]any{"amount": 25_000}, &usd); err != nil {
		panic(err)
	}
	fmt.Println("balance:", usd.Balance.Amount)
	_ = srv.RunDue() // deliver the webhooks written so far
	fmt.Println("webhooks:", srv.Webhooks.Types())
	// Output:
	// balance: 25000
	// webhooks: [INCOMING_PAYMENT.COMPLETED INTERNAL_ACCOUNT.BALANCE_UPDATED]
}

// Example_quoteAndExecute quotes a payout, executes it, and moves the
// clock past the six minutes a ...003 account takes to settle.
func Example_quoteAndExecute() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()

	id, usd := onboard(srv, "Jane Doe")
	_ = srv.Call("POST", "/sandbox/internal-accounts/"+usd.ID+"/fund", map[string]any{"amount": 25_000}, nil)
	var ext struct{ ID string }
	_ = srv.Call("POST", "/customers/external-accounts", usdBank(id, "123456003"), &ext)
	var q struct{ ID, Status, TransactionID string }
	if err := srv.Call("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": usd.ID},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": ext.ID},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 10_000}, &q); err != nil {
		panic(err)
	}
	fmt.Println("quote:", q.Status)
	_ = srv.Call("POST", "/quotes/"+q.ID+"/execute", nil, &q)
	var tx struct{ Status string }
	_ = srv.Call("GET", "/transactions/"+q.TransactionID, nil, &tx)
	fmt.Println("executed:", tx.Status)
	_ = srv.Call("POST", "/sandbox/clock/advance", map[string]any{"duration": "6m"}, nil)
	_ = srv.Call("GET", "/transactions/"+q.TransactionID, nil, &tx)
	fmt.Println("six minutes later:", tx.Status)
	// Output:
	// quote: PENDING
	// executed: PROCESSING
	// six minutes later: COMPLETED
}

// Example_receive simulates a UMA payment arriving for a customer.
func Example_receive() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()

	id, usd := onboard(srv, "Jane Doe", func(b map[string]any) { b["umaAddress"] = "$jane@sandbox.uma.money" })
	var in struct{ Status string }
	if err := srv.Call("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD,
		"customerId": id, "receivingCurrencyCode": "USD", "receivingCurrencyAmount": 2_500}, &in); err != nil {
		panic(err)
	}
	_, usd = onboardedAccount(srv, id)
	fmt.Println("incoming:", in.Status, "balance:", usd.Balance.Amount)
	// Output:
	// incoming: COMPLETED balance: 2500
}

// Example_webhookVerification points the platform's webhooks at your own
// endpoint, which verifies each delivery's signature with the platform's
// public key (the sandbox server prints it at start), and that the delivery
// was sent at most webhooks.DefaultTolerance ago on the sandbox's clock,
// which stamps each delivery when it is sent (a receiver of the live
// service leaves Now nil: the wall clock).
func Example_webhookVerification() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()
	verifier := webhooks.Verifier{Key: srv.Webhooks.PublicKey(), Now: srv.Clock.Now}

	received := make(chan string, 10)
	yours := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := verifier.Verify(body, r.Header.Get(webhooks.SignatureHeader)); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var ev payments.Event
		_ = json.Unmarshal(body, &ev)
		received <- string(ev.Type)
	}))
	defer yours.Close()

	_ = srv.Call("PATCH", "/config", map[string]any{"webhookEndpoint": yours.URL}, nil)
	if err := srv.Call("POST", "/sandbox/webhooks/test", nil, nil); err != nil {
		panic(err)
	}
	fmt.Println("verified:", <-received)
	// Output:
	// verified: TEST
}

// Example_agentApproval lets an agent pay out within its policy and asks
// the platform to approve a payout above its approval threshold.
func Example_agentApproval() {
	srv, _ := sandbox.StartServer()
	defer srv.Close()

	id, usd := onboard(srv, "Jane Doe")
	_ = srv.Call("POST", "/sandbox/internal-accounts/"+usd.ID+"/fund", map[string]any{"amount": 10_000}, nil)
	var ext struct{ ID string }
	_ = srv.Call("POST", "/customers/external-accounts", usdBank(id, "123456001"), &ext)
	var created struct {
		Agent      struct{ ID string }
		DeviceCode struct{ Code string }
	}
	if err := srv.Call("POST", "/agents", map[string]any{"name": "Payroll bot", "customerId": id, "policy": map[string]any{
		"permissions":          []string{"CREATE_TRANSFERS", "VIEW_TRANSACTIONS"},
		"defaultExecutionMode": "AUTO",
		"spendingLimits":       map[string]any{"currency": "USD", "perTransactionLimit": 1_000, "dailyLimit": 5_000},
		"approvalThresholds":   map[string]any{"currency": "USD", "amount": 800}}}, &created); err != nil {
		panic(err)
	}
	// The agent redeems its device code for its own credential.
	var agent struct{ AccessToken string }
	_ = srv.Call("POST", "/agents/device-codes/"+created.DeviceCode.Code+"/redeem", nil, &agent)
	bearer := []string{"Authorization", "Bearer " + agent.AccessToken}

	payout := map[string]any{"source": map[string]any{"accountId": usd.ID}, "destination": map[string]any{"accountId": ext.ID}, "amount": 900}
	var action struct{ ID, Status string }
	_ = srv.Call("POST", "/agents/me/transfer-out", payout, &action, bearer...)
	fmt.Println("agent asks:", action.Status)
	_ = srv.Call("POST", "/agents/"+created.Agent.ID+"/actions/"+action.ID+"/approve", nil, &action)
	fmt.Println("platform approves:", action.Status)
	// Output:
	// agent asks: PENDING_APPROVAL
	// platform approves: APPROVED
}
