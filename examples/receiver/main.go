// Command receiver is a local webhook receiver for trying the sandbox
// server: it accepts the platform's webhooks at /webhooks, prints one line
// per event (its type and id) and answers 204. With -key it verifies each
// delivery's signature with the public key the server printed at start
// (saved to a file) and its timestamp, the time it was sent, at most
// -tolerance (5 minutes) old on this machine's clock, and answers 401 to
// one that does not verify. A sandbox whose clock was moved stamps its
// deliveries with that clock: -tolerance -1 checks the signature alone.
//
//	go run ./examples/receiver -addr 127.0.0.1:9000 -key webhook-key.pub.pem
//
// Then point the platform at it: PATCH /config with
// {"webhookEndpoint": "http://127.0.0.1:9000/webhooks"}.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/webhooks"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(1)
	}
}

// run serves until ctx is cancelled, printing each event to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("receiver", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:9000", "listen address")
	keyFile := fs.String("key", "", "PEM file of the server's webhook public key; when set, deliveries that do not verify are refused")
	brand := fs.String("brand", "", "the server's -brand, which names the signature header (X-NAME-Signature)")
	tolerance := fs.Duration("tolerance", webhooks.DefaultTolerance, "with -key, how old a delivery's timestamp (when it was sent) may be; negative: check the signature alone (a sandbox whose clock was moved)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var verifier *webhooks.Verifier
	if *keyFile != "" {
		pem, err := os.ReadFile(*keyFile)
		if err != nil {
			return err
		}
		pub, err := webhooks.ParsePublicKeyPEM(string(pem))
		if err != nil {
			return fmt.Errorf("%s: %w", *keyFile, err)
		}
		verifier = &webhooks.Verifier{Key: pub, Tolerance: *tolerance}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler(verifier, webhooks.SignatureHeaderFor(*brand), out), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "receiver listening on http://%s/webhooks\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler accepts POST /webhooks, verifying the signature in header and
// the delivery's age with v when it is set, and prints "TYPE ID" for each
// event.
func handler(v *webhooks.Verifier, header string, out io.Writer) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhooks", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if v != nil {
			if err := v.Verify(body, r.Header.Get(header)); errors.Is(err, webhooks.ErrStaleDelivery) {
				fmt.Fprintln(out, "refused: the delivery is too old (a replay, or a clock apart: see -tolerance)")
				http.Error(w, "stale delivery", http.StatusUnauthorized)
				return
			} else if err != nil {
				fmt.Fprintln(out, "refused: the signature does not verify")
				http.Error(w, "bad signature", http.StatusUnauthorized)
				return
			}
		}
		var ev payments.Event
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "bad event", http.StatusBadRequest)
			return
		}
		fmt.Fprintln(out, ev.Type, ev.ID)
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}
