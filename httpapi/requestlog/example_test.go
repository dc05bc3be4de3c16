package requestlog_test

import (
	"fmt"
	"net/url"

	"github.com/paygrid/payments/httpapi/requestlog"
	"github.com/paygrid/payments/validate"
)

// The log keeps the latest requests; a filter read from a query picks
// some of them, newest first.
func ExampleLog() {
	log := requestlog.New(2)
	log.Add(requestlog.Request{Method: "GET", Path: "/quotes", Status: 200})
	log.Add(requestlog.Request{Method: "POST", Path: "/quotes", Status: 201})
	log.Add(requestlog.Request{Method: "POST", Path: "/quotes", Status: 400, Code: "INVALID_INPUT"})
	var fe validate.Errors
	f := requestlog.ParseFilter(url.Values{"method": {"post"}, "status": {"4xx"}}, "/2025-10-13", &fe)
	fmt.Println(len(log.Latest(10, requestlog.Filter{})), log.Latest(10, f)[0].Code, fe.Err())
	// Output: 2 INVALID_INPUT <nil>
}
