package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/dashboard"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
)

// mountDashboard mounts the operator dashboard at /dashboard/ of mux
// unless -dashboard=false, and returns the lines to print at start: where
// it is and a one-time login link. Its clock buttons move, freeze and
// resume the sandbox clock through controls; its request log page shows
// api's.
func mountDashboard(mux *http.ServeMux, o options, eng *payments.Engine, controls *sandbox.Controls, api *httpapi.Handler,
	origin string, logger *slog.Logger) string {
	if !o.dashboard {
		return ""
	}
	d := dashboard.New(dashboard.Options{Engine: eng, Advance: controls.AdvanceBy, Freeze: controls.Freeze, Resume: controls.Resume,
		Frozen: controls.Frozen, Trigger: controls.Trigger, TriggerTypes: controls.TriggerTypes(), Requests: api.Requests, RequestStream: api.RequestStream(), Logger: logger})
	mux.Handle("/dashboard/", d)
	return fmt.Sprintf("dashboard: %s/dashboard/ (sign in with the API token), or once without it: %s%s\n", origin, origin, d.LoginLink())
}
