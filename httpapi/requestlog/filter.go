package requestlog

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/paygrid/payments/validate"
)

// Filter picks requests of the log: every filter it sets must match. The
// zero Filter matches every request. ParseFilter reads one from a query.
type Filter struct {
	method    string // exact, upper case
	status    int    // an exact status, or
	class     int    // a status class: 4 for 4xx
	path      string // a prefix of the path, with or without the base path
	base      string // the handler's base path
	requestID string // exact
}

// Match reports whether r passes every filter f sets.
func (f Filter) Match(r Request) bool {
	switch {
	case f.method != "" && r.Method != f.method,
		f.status != 0 && r.Status != f.status,
		f.class != 0 && r.Status/100 != f.class,
		f.requestID != "" && r.RequestID != f.requestID:
		return false
	case f.path != "":
		return strings.HasPrefix(r.Path, f.path) || strings.HasPrefix(r.Path, f.base+f.path)
	}
	return true
}

// filterParams are the filters of the request log, besides limit.
var filterParams = []string{"method", "status", "path", "requestId"}

// methods are the methods the method filter takes.
var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// statusPattern is a status code (404) or class (4xx).
var statusPattern = regexp.MustCompile(`^[1-5]([0-9][0-9]|[xX][xX])$`)

// ParseFilter reads the request log's filters from q: method (GET, POST,
// ...), status (a code such as 404 or a class such as 4xx), path (a
// prefix, with or without base, the handler's base path) and requestId.
// Any other parameter but those named in also is refused, as is a
// malformed value, each a field error in fe naming the parameter.
func ParseFilter(q url.Values, base string, fe *validate.Errors, also ...string) Filter {
	f := Filter{base: base}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(filterParams, name) && !slices.Contains(also, name) {
			fe.Add(name, nil, "%s is not a parameter of the request log; it takes %s", name, strings.Join(append(append([]string(nil), filterParams...), also...), ", "))
		}
	}
	if m := q.Get("method"); m != "" {
		if fe.Enum("method", strings.ToUpper(m), methods...) {
			f.method = strings.ToUpper(m)
		}
	}
	if s := q.Get("status"); s != "" {
		switch {
		case !statusPattern.MatchString(s):
			fe.Add("status", nil, "status must be a status code such as 404 or a class such as 4xx")
		case s[1] == 'x' || s[1] == 'X':
			f.class = int(s[0] - '0')
		default:
			f.status, _ = strconv.Atoi(s)
		}
	}
	if p := q.Get("path"); p != "" {
		if !strings.HasPrefix(p, "/") || len(p) > 1000 {
			fe.Add("path", nil, "path must be a path prefix that starts with / (at most 1000 characters)")
		}
		f.path = p
	}
	if id := q.Get("requestId"); id != "" {
		if !ValidID(id) {
			fe.Add("requestId", nil, "requestId must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
		}
		f.requestID = id
	}
	return f
}
