package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/validate"
)

// form is a parsed multipart/form-data body: its text fields and its one
// file part (named "file").
type form struct {
	fields   map[string]string
	file     []byte
	fileName string
}

// errMalformedMultipart answers a multipart body that does not parse (the
// parser's own message names Go internals, not the request).
var errMalformedMultipart = payments.Errorf(payments.CodeInvalidInput,
	"malformed multipart/form-data body: every part needs headers and must end with the boundary of the Content-Type")

// multipart parses the buffered body as multipart/form-data.
func (r *request) multipart() (*form, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		var fe validate.Errors
		fe.Add("file", nil, "the body must be multipart/form-data with a file part")
		return nil, payments.Invalid(fe)
	}
	mr := multipart.NewReader(bytes.NewReader(r.body), params["boundary"])
	f := &form{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, errMalformedMultipart
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return nil, errMalformedMultipart
		}
		if part.FormName() == "file" {
			f.file, f.fileName = b, part.FileName()
		} else {
			f.fields[part.FormName()] = string(b)
		}
	}
}

func (f *form) upload() payments.DocumentUpload {
	return payments.DocumentUpload{
		DocumentHolder: f.fields["documentHolder"], DocumentType: f.fields["documentType"], Side: f.fields["side"],
		Country: f.fields["country"], DocumentNumber: f.fields["documentNumber"],
		IssuingAuthority: f.fields["issuingAuthority"], FileName: f.fileName, Content: f.file,
	}
}

func uploadDocument(r *request) (int, any, error) {
	f, err := r.multipart()
	if err != nil {
		return fail(err)
	}
	d, err := r.eng.Documents.Upload(r.ctx(), f.upload())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, d)
}

func replaceDocument(r *request) (int, any, error) {
	f, err := r.multipart()
	if err != nil {
		return fail(err)
	}
	d, err := r.eng.Documents.Replace(r.ctx(), r.path("documentId"), f.upload())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, d)
}

func listDocuments(r *request) (int, any, error) {
	q := r.query()
	holder := q.str("documentHolder")
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Documents.List(r.ctx(), holder, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

func getDocument(r *request) (int, any, error) {
	d, err := r.eng.Documents.Get(r.ctx(), r.path("documentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, d)
}

func deleteDocument(r *request) (int, any, error) {
	if err := r.eng.Documents.Delete(r.ctx(), r.path("documentId")); err != nil {
		return fail(err)
	}
	return noContent()
}
