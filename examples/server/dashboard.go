package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/dashboard"
)

// withDashboard mounts the operator dashboard at /dashboard/ beside api
// unless -dashboard=false, and returns the handler to serve and the lines
// to print at start: where it is and a one-time login link. advance moves
// the sandbox clock (the dashboard's clock form); nil shows the clock
// read-only.
func withDashboard(o options, eng *payments.Engine, api http.Handler, advance func(context.Context, time.Duration) error,
	origin string, logger *slog.Logger) (http.Handler, string) {
	if !o.dashboard {
		return api, ""
	}
	d := dashboard.New(dashboard.Options{Engine: eng, Advance: advance, Logger: logger})
	mux := http.NewServeMux()
	mux.Handle("/dashboard/", d)
	mux.Handle("/", api)
	return mux, fmt.Sprintf("dashboard: %s/dashboard/ (sign in with the API token), or once without it: %s%s\n", origin, origin, d.LoginLink())
}
