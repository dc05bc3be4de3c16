package customers

import (
	"bytes"
	"context"
	"iter"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// Document tables: metadata by id, file bytes by id, and the unique index
// "<holder>|<documentType>|<side>" -> id (one document of a type and side
// per holder; PUT replaces it).
const (
	tableDocuments         = "documents"
	tableDocumentFiles     = "document_files"
	tableDocumentsByHolder = "documents_by_holder"
)

// MaxDocumentBytes caps one uploaded file (413 PAYLOAD_TOO_LARGE above it).
// The file is stored in the same transaction as its record, so the cap
// also bounds what one transaction writes.
const MaxDocumentBytes = 10 << 20

// Document is an uploaded verification document. Its file is kept apart
// (tableDocumentFiles), so lists and views never load the bytes. A holder
// has at most one document per (documentType, side).
type Document struct {
	ID               string    `json:"id"`
	DocumentHolder   string    `json:"documentHolder"`
	DocumentType     string    `json:"documentType"`
	Side             string    `json:"side,omitempty"`
	Country          string    `json:"country"`
	DocumentNumber   string    `json:"documentNumber,omitempty"`
	IssuingAuthority string    `json:"issuingAuthority,omitempty"`
	FileName         string    `json:"fileName"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// DocumentUpload is an upload (POST) or replacement (PUT; DocumentHolder is
// then ignored). Content is the file; its type is sniffed from its bytes.
type DocumentUpload struct {
	DocumentHolder   string
	DocumentType     string
	Side             string
	Country          string
	DocumentNumber   string
	IssuingAuthority string
	FileName         string
	Content          []byte
}

// sniff returns the media type of an accepted file (JPEG, PNG or PDF), or "".
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "application/pdf"
	}
	return ""
}

// check records every invalid member of an upload in fe and returns the
// file's media type ("" when it is none of JPEG, PNG or PDF). The type is
// sniffed from the bytes, never taken from the file name or a header.
func (in *DocumentUpload) check(fe *validate.Errors) string {
	if fe.Required("documentType", in.DocumentType) {
		fe.Enum("documentType", in.DocumentType, DocumentTypes...)
	}
	fe.Enum("side", in.Side, "FRONT", "BACK")
	if fe.Required("country", in.Country) {
		fe.Country("country", in.Country)
	}
	fe.MaxLen("fileName", in.FileName, 255)
	kind := sniff(in.Content)
	if len(in.Content) == 0 {
		fe.Add("file", nil, "file is required")
	} else if kind == "" {
		fe.Add("file", &validate.Constraint{Enum: []string{"image/jpeg", "image/png", "application/pdf"}}, "file must be a JPEG, PNG or PDF")
	}
	return kind
}

// docKey is a document's key in the unique index of tableDocumentsByHolder.
func docKey(holder, typ, side string) string { return holder + "|" + typ + "|" + side }

// Upload stores a document for a customer or beneficial owner:
// DOCUMENT_HOLDER_NOT_FOUND for an unknown holder (or a deleted customer),
// DOCUMENT_ALREADY_EXISTS when the holder has one of that type and side
// (replace it with PUT), PAYLOAD_TOO_LARGE above MaxDocumentBytes, and
// INVALID_INPUT for every invalid member. The record and the file are
// written in one transaction.
func (ds Documents) Upload(ctx context.Context, in DocumentUpload) (_ *Document, err error) {
	ctx, op := begin(ctx, ds.e, "Documents.Upload")
	defer op.End(&err)
	e := ds.e
	if len(in.Content) > MaxDocumentBytes {
		return nil, engine.Errorf(engine.CodeBodyTooLarge, "documents are limited to %d bytes", MaxDocumentBytes)
	}
	var out *Document
	err = engine.Once(ctx, e, in, &out, func(t *engine.Txn) error {
		var fe validate.Errors
		fe.Required("documentHolder", in.DocumentHolder)
		kind := in.check(&fe)
		if err := engine.Invalid(fe.Err()); err != nil {
			return err
		}
		if err := requireHolder(t, in.DocumentHolder); err != nil {
			return err
		}
		id := t.NewID("Document")
		d := &Document{ID: id, DocumentHolder: in.DocumentHolder, CreatedAt: t.Now}
		d.fill(in, kind, t.Now)
		if err := engine.Claim(t, tableDocumentsByHolder, docKey(d.DocumentHolder, d.DocumentType, d.Side), id,
			engine.Errorf(CodeDocumentAlreadyExists, "%s already has a %s document; replace it with PUT /documents/{documentId}", d.DocumentHolder, d.DocumentType)); err != nil {
			return err
		}
		out = d
		return saveDocument(t, d, in.Content)
	})
	return out, err
}

// Replace replaces a document's file and metadata; the holder stays.
// NOT_FOUND for an unknown document, DOCUMENT_ALREADY_EXISTS when the new
// type and side are another document's, PAYLOAD_TOO_LARGE and
// INVALID_INPUT as for Upload. Unlike Delete, it does not look at the
// holder's verification status.
func (ds Documents) Replace(ctx context.Context, id string, in DocumentUpload) (_ *Document, err error) {
	ctx, op := begin(ctx, ds.e, "Documents.Replace")
	defer op.End(&err)
	e := ds.e
	if len(in.Content) > MaxDocumentBytes {
		return nil, engine.Errorf(engine.CodeBodyTooLarge, "documents are limited to %d bytes", MaxDocumentBytes)
	}
	var out *Document
	err = engine.Once(ctx, e, []any{id, in}, &out, func(t *engine.Txn) error {
		d, err := document(t, id)
		if err != nil {
			return err
		}
		var fe validate.Errors
		kind := in.check(&fe)
		if err := engine.Invalid(fe.Err()); err != nil {
			return err
		}
		oldKey := docKey(d.DocumentHolder, d.DocumentType, d.Side)
		d.fill(in, kind, t.Now)
		if newKey := docKey(d.DocumentHolder, d.DocumentType, d.Side); newKey != oldKey {
			if err := t.Delete(tableDocumentsByHolder, oldKey); err != nil {
				return err
			}
			if err := engine.Claim(t, tableDocumentsByHolder, newKey, id, engine.Errorf(CodeDocumentAlreadyExists, "%s already has a %s document", d.DocumentHolder, d.DocumentType)); err != nil {
				return err
			}
		}
		out = d
		return saveDocument(t, d, in.Content)
	})
	return out, err
}

// fill copies an upload's metadata onto d, naming the file after its type
// when the upload gave no name.
func (d *Document) fill(in DocumentUpload, kind string, now time.Time) {
	d.DocumentType, d.Side, d.Country = in.DocumentType, in.Side, in.Country
	d.DocumentNumber, d.IssuingAuthority, d.FileName = in.DocumentNumber, in.IssuingAuthority, in.FileName
	d.UpdatedAt = now
	if d.FileName == "" {
		d.FileName = strings.ToLower(d.DocumentType) + map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}[kind]
	}
}

// saveDocument writes d and its file.
func saveDocument(t *engine.Txn, d *Document, content []byte) error {
	if err := engine.PutJSON(t, tableDocuments, d.ID, d); err != nil {
		return err
	}
	return t.Put(tableDocumentFiles, d.ID, content)
}

// requireHolder checks that a document holder (a customer that is not
// deleted, or a beneficial owner) exists: DOCUMENT_HOLDER_NOT_FOUND
// otherwise, told apart by the id's prefix.
func requireHolder(t *engine.Txn, holder string) error {
	var err error
	switch {
	case strings.HasPrefix(holder, "Customer:"):
		_, err = Live(t, holder)
	case strings.HasPrefix(holder, "BeneficialOwner:"):
		_, err = owner(t, holder)
	default:
		err = engine.ErrNotFound
	}
	if engine.CodeOf(err) == engine.CodeCustomerNotFound || engine.CodeOf(err) == engine.CodeNotFound {
		return engine.Errorf(CodeDocumentHolderNotFound, "document holder %s not found", holder)
	}
	return err
}

// document loads a document's metadata: NOT_FOUND when absent.
func document(t *engine.Txn, id string) (*Document, error) {
	var d Document
	if err := engine.GetJSON(t, tableDocuments, id, &d); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "document", id)
	}
	return &d, nil
}

// documentTypes lists the document types a holder has uploaded, read from
// the unique index alone (no record or file is loaded).
func documentTypes(t *engine.Txn, holder string) ([]string, error) {
	var out []string
	err := t.Scan(tableDocumentsByHolder, engine.ScanOptions{Prefix: holder + "|"}, func(k string, _ []byte) (bool, error) {
		parts := strings.Split(k, "|")
		out = append(out, parts[len(parts)-2])
		return true, nil
	})
	return out, err
}

// Get returns a document's metadata (NOT_FOUND for an unknown id); the file
// itself is not served.
func (ds Documents) Get(ctx context.Context, id string) (_ *Document, err error) {
	ctx, op := begin(ctx, ds.e, "Documents.Get")
	defer op.End(&err)
	e := ds.e
	var out *Document
	err = e.View(ctx, func(t *engine.Txn) error {
		var err error
		out, err = document(t, id)
		return err
	})
	return out, err
}

// List lists documents, oldest first, optionally of one holder. A
// malformed cursor or limit is INVALID_INPUT.
func (ds Documents) List(ctx context.Context, holder string, p engine.ListParams) (_ engine.Page[Document], err error) {
	ctx, op := begin(ctx, ds.e, "Documents.List")
	defer op.End(&err)
	e := ds.e
	var page engine.Page[Document]
	err = e.View(ctx, func(t *engine.Txn) error {
		var err error
		page, err = engine.List(t, engine.ListQuery[Document]{Table: tableDocuments, Index: engine.IxAll}.Narrowest([2]string{ixHolder, holder}), p)
		return err
	})
	return page, err
}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ds Documents) ListAll(ctx context.Context, holder string, p engine.ListParams) iter.Seq2[Document, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Document], error) {
		return ds.List(ctx, holder, p)
	})
}

// Delete removes a document with its file. A document of a customer whose
// verification is under review or decided (any status but UNVERIFIED) is
// CONFLICT: it is evidence. NOT_FOUND for an unknown document.
func (ds Documents) Delete(ctx context.Context, id string) (err error) {
	ctx, op := begin(ctx, ds.e, "Documents.Delete")
	defer op.End(&err)
	e := ds.e
	return engine.Once(ctx, e, id, &struct{}{}, func(t *engine.Txn) error {
		d, err := document(t, id)
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.DocumentHolder, "Customer:") {
			c, err := Get(t, d.DocumentHolder)
			if err != nil {
				return err
			}
			if c.Status() != KYCUnverified {
				return engine.Errorf(engine.CodeConflict, "document %s was submitted for verification and cannot be deleted", id)
			}
		}
		for _, k := range [][2]string{{tableDocumentsByHolder, docKey(d.DocumentHolder, d.DocumentType, d.Side)}, {tableDocuments, id}, {tableDocumentFiles, id}} {
			if err := t.Delete(k[0], k[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

// Documents stores verification documents for customers and beneficial
// owners: the facade's eng.Documents (payments.Documents), a value over the
// engine's handle, safe for concurrent use. Its write operations run
// through engine.Once like every other (idempotent by key).
type Documents struct{ e *engine.Handle }

// NewDocuments returns the Documents group of h (payments.New binds it to
// every handle).
func NewDocuments(h *engine.Handle) Documents { return Documents{h} }
