// Command server runs the payments sandbox: the whole REST API on a local
// address, backed by a bbolt file, memory with -memory, or PostgreSQL with
// -postgres (several servers may share one database).
//
//	go run ./examples/server
//	go run ./examples/server -addr 127.0.0.1:9090 -db /tmp/pay.db
//	go run ./examples/server -memory -token myclient:mysecret-at-least-16
//	go run ./examples/server -postgres 'postgres://user@localhost/payments' -token myclient:mysecret-at-least-16
//
// By default it behaves like the hosted sandbox: incoming payments wait for
// the platform's answer when its INCOMING_PAYMENT.PENDING webhook answers
// 202 (-incoming-approval=false completes them at once), and bank
// identifiers need only match the reference's published patterns
// (-strict-check-digits also checks IBAN, routing-number and CLABE check
// digits and crypto address checksums, as the library does by default).
// Request bodies must arrive within -body-timeout; on SIGTERM, in-flight
// requests get -shutdown-timeout before connections are closed.
// -brand NAME speaks a maker's name where the API says "Service"
// (NAME-Wallet-Signature, X-NAME-Signature, NAME_SWITCH_ERROR,
// nameApiMultiplier, ...), so that the reference's own clients work.
// Embedded-wallet passkeys are accepted from -wallet-origins (default
// http://localhost and http://localhost:8080) for the relying party
// -wallet-rp-id.
//
// On first start it seeds an unregulated platform and an API token with every
// permission, and prints the base URL (with the port chosen for -addr
// 127.0.0.1:0), where the database is, the credential and a ready curl
// line. Its clock follows real time until the /sandbox/clock routes move or
// freeze it, and resumes where it stood after a restart (the database keeps
// it); -log-level and -log-format (text or json) set the structured log on
// stderr (a line per request at INFO, each line of a request with its
// request_id). /healthz and /readyz are the probes (readiness fails for
// -shutdown-delay on SIGTERM before the shutdown); -pprof serves the
// runtime's profiles at /debug/pprof/ on an address of their own
// (-pprof-addr, loopback by default), never the command line. Secrets need
// not be on the command line: -token-file and -postgres-file read them
// from files, PAYMENTS_API_TOKEN and PAYMENTS_POSTGRES from the
// environment. Prometheus metrics are served at
// /metrics (-metrics=false turns them off); with OTEL_EXPORTER_OTLP_ENDPOINT
// set, spans of each request, operation, store transaction, hand-over and
// webhook delivery are exported over OTLP/HTTP.
// The operator dashboard is served at /dashboard/ (-dashboard=false turns it
// off), with a one-time login link printed at start; its buttons advance,
// freeze and resume the sandbox clock and send webhooks again. Its event
// history keeps each event for -event-history-retention after its
// delivery ended (7 days by default, 0 forever).
package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/paygrid/payments/telemetry/oteltrace"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/webhooks"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// memoryGCTarget is the garbage collector's target (GOGC) of a server on
// the memory store, unless the GOGC environment variable sets one: there
// every record is on the heap and each collection walks them all, so the
// default target of 100, which collects each time the heap has doubled,
// spent a tenth of a payment's CPU marking the store (quote+execute under
// wrk: 148 -> 127 us of CPU per request and 10.9k -> 12.2k req/s at 300,
// interleaved; POST /quotes unchanged). The heap may grow to four times
// the live data instead of two.
const memoryGCTarget = 300

// options are the command-line settings.
type options struct {
	addr, db, basePath, token string
	brand                     string
	postgres, pgSchema        string
	memory                    bool
	incomingApproval          bool
	strictCheckDigits         bool
	bodyTimeout               time.Duration
	shutdownTimeout           time.Duration
	shutdownDelay             time.Duration
	logLevel                  slog.Level
	logFormat                 string
	dashboard                 bool
	walTruncateDamaged        bool
	pprof                     bool
	pprofAddr                 string
	metrics                   bool
	// walletRP is the relying party of embedded-wallet passkeys; a zero ID
	// means payments.DefaultWalletRelyingParty.
	walletRP walletauth.RelyingParty
	// eventHistoryRetention is how long the dashboard's event history
	// keeps an event after its delivery ended; 0 keeps every event.
	eventHistoryRetention time.Duration
}

func parseFlags(args []string, getenv func(string) string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&o.db, "db", "payments-sandbox.db", "bbolt database file")
	fs.BoolVar(&o.memory, "memory", false, "keep everything in memory instead of -db")
	fs.BoolVar(&o.walTruncateDamaged, "wal-truncate-damaged", false, "start even though -db's write-ahead log is damaged before its end, dropping the acknowledged writes after the damage (the start refuses such a log otherwise and says how many)")
	fs.StringVar(&o.postgres, "postgres", getenv("PAYMENTS_POSTGRES"), "PostgreSQL DSN to use instead of -db, shared by any number of servers (env PAYMENTS_POSTGRES; a DSN with a password is better given by -postgres-file or the environment than on the command line)")
	pgFile := fs.String("postgres-file", getenv("PAYMENTS_POSTGRES_FILE"), "file holding the PostgreSQL DSN, instead of -postgres (env PAYMENTS_POSTGRES_FILE)")
	fs.StringVar(&o.pgSchema, "postgres-schema", getenv("PAYMENTS_POSTGRES_SCHEMA"), "PostgreSQL schema of the tables; empty means the DSN's default (env PAYMENTS_POSTGRES_SCHEMA)")
	fs.StringVar(&o.basePath, "base-path", "/2025-10-13", "path prefix of the API")
	fs.StringVar(&o.token, "token", getenv("PAYMENTS_API_TOKEN"), "fixed API credential clientId:secret (env PAYMENTS_API_TOKEN; better given by -token-file or the environment than on the command line)")
	tokenFile := fs.String("token-file", getenv("PAYMENTS_API_TOKEN_FILE"), "file holding the fixed API credential clientId:secret, instead of -token (env PAYMENTS_API_TOKEN_FILE)")
	fs.BoolVar(&o.incomingApproval, "incoming-approval", true, "incoming payments wait when the INCOMING_PAYMENT.PENDING webhook answers 202 (the reference's behaviour)")
	fs.BoolVar(&o.strictCheckDigits, "strict-check-digits", false, "refuse bank identifiers whose check digits fail (the hosted sandbox checks only patterns)")
	fs.DurationVar(&o.bodyTimeout, "body-timeout", 30*time.Second, "time allowed to read a request body")
	fs.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 10*time.Second, "time in-flight requests get on shutdown before connections are closed")
	fs.DurationVar(&o.shutdownDelay, "shutdown-delay", 0, "on SIGTERM, time /readyz fails while requests are still served, before the shutdown begins (for load balancers to notice)")
	fs.BoolVar(&o.pprof, "pprof", false, "serve the Go runtime's profiles at /debug/pprof/ on -pprof-addr (no credentials; never the command line)")
	fs.StringVar(&o.pprofAddr, "pprof-addr", "127.0.0.1:0", "listen address of the profiles of -pprof, apart from the API's (loopback by default; :0 picks a port, printed at start)")
	fs.TextVar(&o.logLevel, "log-level", slog.LevelInfo, "least level logged to stderr: DEBUG, INFO (a line per request), WARN or ERROR")
	fs.StringVar(&o.logFormat, "log-format", "text", "format of the log on stderr: text (key=value) or json (a JSON object a line)")
	fs.BoolVar(&o.dashboard, "dashboard", true, "serve the operator dashboard at /dashboard/ (prints a one-time login link)")
	fs.DurationVar(&o.eventHistoryRetention, "event-history-retention", payments.DefaultEventHistoryRetention, "how long the dashboard's event history keeps an event after its delivery ended, on the sandbox clock (0 keeps every event; else at least 1m)")
	fs.BoolVar(&o.metrics, "metrics", true, "serve Prometheus metrics at /metrics (no credentials: keep the server on a private address)")
	fs.StringVar(&o.brand, "brand", getenv("PAYMENTS_BRAND"), "name the wire carries where it names the platform's maker: NAME-Wallet-Signature, X-NAME-Signature, NAME_SWITCH_ERROR, nameApiMultiplier, ... (default Service; env PAYMENTS_BRAND)")
	origins := fs.String("wallet-origins", getenv("PAYMENTS_WALLET_ORIGINS"), "comma-separated origins embedded-wallet passkeys are accepted from, e.g. http://localhost:5173 (default "+
		strings.Join(payments.DefaultWalletRelyingParty.Origins, ",")+"; env PAYMENTS_WALLET_ORIGINS)")
	rpID := fs.String("wallet-rp-id", getenv("PAYMENTS_WALLET_RP_ID"), "WebAuthn relying party ID of embedded-wallet passkeys; default the host of the first -wallet-origins, else "+
		payments.DefaultWalletRelyingParty.ID+" (env PAYMENTS_WALLET_RP_ID)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// Secrets may come from files, so that they need not be on a command
	// line, which any local user can read (ps, /proc).
	for _, sf := range []struct {
		flag, file string
		dst        *string
	}{{"token", *tokenFile, &o.token}, {"postgres", *pgFile, &o.postgres}} {
		if sf.file == "" {
			continue
		}
		if set[sf.flag] {
			return o, fmt.Errorf("-%s and -%s-file exclude each other", sf.flag, sf.flag)
		}
		b, err := os.ReadFile(sf.file)
		if err != nil {
			return o, fmt.Errorf("-%s-file: %w", sf.flag, err)
		}
		if *sf.dst = strings.TrimSpace(string(b)); *sf.dst == "" {
			return o, fmt.Errorf("-%s-file: %s is empty", sf.flag, sf.file)
		}
	}
	rp, err := walletRelyingParty(*origins, *rpID)
	if err != nil {
		return o, err
	}
	o.walletRP = rp
	if _, err := payments.NewBrand(o.brand); err != nil {
		return o, fmt.Errorf("-brand: %w", err)
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return o, fmt.Errorf("-log-format: %q is neither text nor json", o.logFormat)
	}
	if r := o.eventHistoryRetention; r < 0 || r > 0 && r < time.Minute {
		return o, fmt.Errorf("-event-history-retention: %v is neither 0 (keep every event) nor at least 1m", r)
	}
	if o.memory && o.postgres != "" {
		return o, errors.New("-memory and -postgres exclude each other")
	}
	if o.token != "" && !strings.Contains(o.token, ":") {
		return o, errors.New("-token must be clientId:secret")
	}
	return o, nil
}

// run serves until ctx is cancelled, logging to stderr. ready, when set,
// receives the base URL once the listener is up (tests use it).
func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer, ready chan<- string) error {
	return runLogging(ctx, args, getenv, out, os.Stderr, ready)
}

// runLogging is run with the log written to logs.
func runLogging(ctx context.Context, args []string, getenv func(string) string, out, logs io.Writer, ready chan<- string) error {
	o, err := parseFlags(args, getenv, out)
	if err != nil {
		return err
	}
	logger := newLogger(o, logs)

	// The webhook signing key comes first: a start cut short between the
	// two files leaves a key without a database (used on the next start),
	// never a database without its key (refused).
	existed := false // the -db file held data before this start
	if info, err := os.Stat(o.db); err == nil && info.Size() > 0 {
		existed = true
	}
	key, err := webhookKey(o, existed)
	if err != nil {
		return err
	}

	var store payments.Store
	switch {
	case o.memory:
		store = memstore.New()
		if getenv("GOGC") == "" {
			// Restored on return, for servers run inside tests.
			defer debug.SetGCPercent(debug.SetGCPercent(memoryGCTarget))
		}
	case o.postgres != "":
		ps, err := pgstore.Open(ctx, o.postgres, &pgstore.Options{Schema: o.pgSchema})
		if err != nil {
			return err
		}
		store = ps
	default:
		bs, err := boltstore.Open(o.db, &boltstore.Options{TruncateDamagedLog: o.walTruncateDamaged})
		if err != nil {
			return fmt.Errorf("open %s: %w", o.db, err)
		}
		if d := bs.DroppedRecords(); d != nil {
			logger.Warn("write-ahead log damaged: dropped the acknowledged writes after the damage (-wal-truncate-damaged)",
				"file", d.File, "offset", d.Offset, "found", d.Found, "records_dropped", d.Records)
			fmt.Fprintf(out, "write-ahead log %s was damaged at offset %d (%s): dropped %d acknowledged records after it (-wal-truncate-damaged)\n",
				d.File, d.Offset, d.Found, d.Records)
		}
		store = bs
	}
	defer store.Close()

	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true, Brand: o.brand})
	if err != nil {
		return err
	}
	// The sandbox clock follows real time until the /sandbox/clock routes
	// move it forward or freeze it.
	clock := sandbox.NewRealClock()
	tel, err := newTelemetry(ctx, o, getenv)
	if err != nil {
		return err
	}
	defer tel.close()
	cfg := engineConfig(o, store, logger, sender)
	cfg.Now, cfg.CardIssuer, cfg.Observer = clock.Now, sandbox.Issuer{Now: clock.Now}, tel.observer
	eng, err := payments.New(cfg)
	if err != nil {
		return err
	}
	defer eng.Close()
	controls := sandbox.NewControls(eng, clock)
	// The clock resumes where it stood before a restart (never earlier):
	// work scheduled at an advanced time still falls due.
	if err := controls.Restore(ctx); err != nil {
		return err
	}

	cred, err := ensureToken(ctx, eng, o.token)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	origin := "http://" + ln.Addr().String()
	base := origin + o.basePath
	api := httpapi.New(eng, httpapi.Config{BasePath: o.basePath, Logger: logger, BodyReadTimeout: o.bodyTimeout, TestClock: controls, Brand: o.brand})
	var draining atomic.Bool // set on SIGTERM: /readyz fails
	mux := http.NewServeMux()
	mux.Handle("/healthz", httpapi.Health())
	mux.Handle("/readyz", httpapi.Ready(eng, httpapi.ReadyOptions{Draining: draining.Load}))
	if o.pprof {
		pprofOrigin, closePprof, err := servePprof(o.pprofAddr)
		if err != nil {
			_ = ln.Close()
			return err
		}
		defer closePprof()
		o.pprofAddr = pprofOrigin
	}
	dashLine := mountDashboard(mux, o, eng, controls, api, origin, logger)
	telemetryLines := tel.mount(mux, eng, origin)
	mux.Handle("/", api)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 10*time.Second + o.bodyTimeout, IdleTimeout: 2 * time.Minute}
	// Shutdown waits for requests to end: the request log's streams end
	// as it begins.
	srv.RegisterOnShutdown(api.Close)

	fmt.Fprintf(out, "payments sandbox listening on %s\n", base)
	fmt.Fprintf(out, "database: %s\n", describeStore(ctx, o))
	fmt.Fprintf(out, "probes: %s/healthz (up), %s/readyz (ready for traffic)\n", origin, origin)
	fmt.Fprint(out, telemetryLines)
	if o.pprof {
		fmt.Fprintf(out, "profiles: %s/debug/pprof/ (-pprof-addr, no credentials)\n", o.pprofAddr)
	}
	if cred != "" {
		fmt.Fprintf(out, "API token (clientId:secret): %s\n", cred)
		fmt.Fprintf(out, "try: curl -u '%s' %s/config\n", cred, base)
	} else {
		fmt.Fprintln(out, "using the API token created at first start (its secret was printed then; pass -token id:secret to fix one)")
	}
	fmt.Fprint(out, dashLine)
	rp := o.walletRP
	if rp.ID == "" {
		rp = payments.DefaultWalletRelyingParty
	}
	fmt.Fprintf(out, "embedded-wallet passkeys: relying party %s, origins %s (-wallet-origins, -wallet-rp-id)\n", rp.ID, strings.Join(rp.Origins, ", "))
	pub, _ := webhooks.PublicKeyPEM(sender.PublicKey())
	fmt.Fprintf(out, "webhooks are signed (%s); verify with this public key:\n%s", sender.SignatureHeader(), pub)
	if ready != nil {
		ready <- base
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	draining.Store(true)
	if o.shutdownDelay > 0 {
		fmt.Fprintf(out, "draining: /readyz fails for %s before the shutdown\n", o.shutdownDelay)
		time.Sleep(o.shutdownDelay)
	}
	fmt.Fprintln(out, "shutting down")
	return shutdown(srv, o.shutdownTimeout)
}

// newLogger is the server's logger on w, in -log-format at -log-level.
// Lines logged while serving an API request carry its request_id
// (httpapi.LogHandler): the request line, the API's errors, and the
// engine's lines logged with the request's context; when traces are
// exported, lines logged inside a span carry its trace_id and span_id
// (oteltrace.LogHandler).
func newLogger(o options, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: o.logLevel}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if o.logFormat == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(httpapi.LogHandler(oteltrace.LogHandler(h)))
}

// describeStore names where the server keeps its data: the database
// file's absolute path, memory, or PostgreSQL's host, database and schema.
func describeStore(ctx context.Context, o options) string {
	switch {
	case o.memory:
		return "in memory (-memory): nothing is kept after the server stops"
	case o.postgres != "":
		return describePostgres(ctx, o.postgres, o.pgSchema)
	}
	path, err := filepath.Abs(o.db)
	if err != nil {
		path = o.db
	}
	return path + " (webhook signing key in " + path + ".webhook-key.pem)"
}

// describePostgres names the server (host and port, a socket directory for
// a Unix socket), the database, the user and the schema of the DSN, never
// its password. An empty schema is the one the connection's search_path
// resolves to (current_schema()), asked of the database.
func describePostgres(ctx context.Context, dsn, schema string) string {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return "PostgreSQL (-postgres)"
	}
	if schema == "" {
		schema = "the search_path's first (current_schema() unknown)"
		if conn, err := pgx.ConnectConfig(ctx, cfg); err == nil {
			var cur *string
			if conn.QueryRow(ctx, "SELECT current_schema()").Scan(&cur) == nil && cur != nil {
				schema = *cur
			}
			_ = conn.Close(context.Background())
		}
	}
	return fmt.Sprintf("PostgreSQL (-postgres): host %s port %d, database %s, user %s, schema %s",
		cfg.Host, cfg.Port, cfg.Database, cfg.User, schema)
}

// servePprof serves the runtime's profiles at /debug/pprof/ on a listener
// of their own at addr (-pprof, -pprof-addr), apart from the API, and
// returns its origin and the function that stops it. The profiles take
// no credentials, hence their own address, loopback by default. The
// command line (/debug/pprof/cmdline) is never served: it may carry the
// API secret (-token) and the database's password (-postgres).
func servePprof(addr string) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("-pprof-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", func(w http.ResponseWriter, r *http.Request) {
		// pprof.Index serves every named profile under it; cmdline is
		// not a profile, and is refused here should it ever become one.
		if strings.TrimPrefix(r.URL.Path, "/debug/pprof/") == "cmdline" {
			http.NotFound(w, r)
			return
		}
		pprof.Index(w, r)
	})
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// shutdown stops srv gracefully, giving in-flight requests up to timeout,
// then closes every connection that is still open.
func shutdown(srv *http.Server, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return srv.Close()
	}
	return err
}

// engineConfig is the sandbox engine's configuration for o.
func engineConfig(o options, store payments.Store, logger *slog.Logger, notifier payments.Notifier) payments.Config {
	return payments.Config{Store: store, Logger: logger, NewUUID: sandbox.NewUUID, Sandbox: true, Notifier: notifier,
		KYC: sandbox.KYC{}, Rail: sandbox.InstantRail{}, Rates: sandbox.Rates{}, Directory: sandbox.Directory{},
		CardIssuer: sandbox.Issuer{}, Stablecoins: sandbox.Stablecoins{},
		IncomingApproval: o.incomingApproval, SkipCheckDigits: !o.strictCheckDigits,
		EventHistory: o.dashboard, EventHistoryRetention: historyRetention(o.eventHistoryRetention), WalletRelyingParty: o.walletRP,
		Platform: payments.PlatformSeed{Currencies: sandbox.PlatformCurrencies()}}
}

// historyRetention is payments.Config.EventHistoryRetention for
// -event-history-retention d: 0 keeps every event, which the Config says
// with a negative value.
func historyRetention(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// walletRelyingParty builds the passkey relying party of -wallet-origins
// (comma-separated) and -wallet-rp-id; both empty leave it zero (the
// engine's default). Without an RP ID the first origin's host is the ID, as
// in WebAuthn; without origins the default origins are kept. Each origin
// must be a bare http(s) origin on the RP ID or one of its subdomains.
func walletRelyingParty(origins, id string) (walletauth.RelyingParty, error) {
	var rp walletauth.RelyingParty
	for o := range strings.SplitSeq(origins, ",") {
		if o = strings.TrimSuffix(strings.TrimSpace(o), "/"); o != "" {
			rp.Origins = append(rp.Origins, o)
		}
	}
	rp.ID = strings.TrimSpace(id)
	if rp.ID == "" && len(rp.Origins) == 0 {
		return walletauth.RelyingParty{}, nil
	}
	if strings.ContainsAny(rp.ID, ":/ ") {
		return rp, fmt.Errorf("-wallet-rp-id: %q must be a host name such as localhost or example.com", rp.ID)
	}
	if len(rp.Origins) == 0 {
		rp.Origins = payments.DefaultWalletRelyingParty.Origins
	}
	for i, o := range rp.Origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
			return rp, fmt.Errorf("-wallet-origins: %q is not an origin such as http://localhost:5173 or https://app.example.com", o)
		}
		if i == 0 && rp.ID == "" {
			rp.ID = u.Hostname()
		}
		if h := u.Hostname(); h != rp.ID && !strings.HasSuffix(h, "."+rp.ID) {
			return rp, fmt.Errorf("-wallet-origins: origin %s is not on the relying party ID %s or a subdomain of it; set -wallet-rp-id", o, rp.ID)
		}
	}
	return rp, nil
}

// webhookKey loads the webhook signing key kept beside the database file, or
// creates it on the database's first start; with -memory or -postgres the
// key lives only as long as the process (each server prints its public
// key). Receivers verify webhooks with the key's public half, so a key is
// never replaced silently: a missing key beside a database that existed
// (dbExisted), or an empty or damaged key file, is an error naming the file.
// A new key is written as durable files are: a temporary file, synced,
// renamed over the name, and the directory synced.
func webhookKey(o options, dbExisted bool) (*ecdsa.PrivateKey, error) {
	if o.memory || o.postgres != "" {
		return webhooks.GenerateKey()
	}
	path := o.db + ".webhook-key.pem"
	if b, err := os.ReadFile(path); err == nil {
		key, err := webhooks.ParsePrivateKeyPEM(string(b))
		if err != nil {
			return nil, fmt.Errorf("webhook signing key %s is empty or damaged (%d bytes): restore it from a copy; "+
				"deleting it makes a new key, which receivers must then be given: %w", path, len(b), err)
		}
		return key, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	} else if dbExisted {
		return nil, fmt.Errorf("webhook signing key %s is missing while database %s exists: restore the key from a copy; "+
			"to start with a new key (receivers must then be given its public key), create an empty database or move %s away", path, o.db, o.db)
	}
	key, err := webhooks.GenerateKey()
	if err != nil {
		return nil, err
	}
	p, err := webhooks.MarshalPrivateKeyPEM(key)
	if err != nil {
		return nil, err
	}
	if err := writeFileDurably(path, []byte(p), 0o600); err != nil {
		return nil, fmt.Errorf("writing the webhook signing key %s: %w", path, err)
	}
	return key, nil
}

// writeFileDurably writes data to path so that a crash or a power cut
// leaves either no file or the whole one: into a temporary file beside it,
// synced, renamed over path, and the directory synced so the name lasts.
func writeFileDurably(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && runtime.GOOS != "windows" {
		return err
	}
	return nil
}

// ensureToken makes sure a usable credential exists and returns the one to
// print: the fixed one, a newly created one on first start, or "" when tokens
// already exist.
func ensureToken(ctx context.Context, eng *payments.Engine, fixed string) (string, error) {
	all := []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}
	if fixed != "" {
		id, secret, _ := strings.Cut(fixed, ":")
		if _, err := eng.Platform.Authenticate(ctx, id, secret); err == nil {
			return fixed, nil
		}
		tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "sandbox", Permissions: all, ClientID: id, ClientSecret: secret})
		if err != nil {
			return "", fmt.Errorf("-token: %w", err)
		}
		return tok.Credential(), nil
	}
	page, err := eng.Platform.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Limit: 1})
	if err != nil {
		return "", err
	}
	if len(page.Data) > 0 {
		return "", nil
	}
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "sandbox", Permissions: all})
	if err != nil {
		return "", err
	}
	return tok.Credential(), nil
}
