package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// errUpstreamTimeout is the cancel cause when the upstream is slower than -timeout.
var errUpstreamTimeout = errors.New("upstream timeout")

// failWith answers an upstream error response: go-openai's types read it (OpenAI's error
// shape, Azure's variants, a code that is a number), and fail maps and scrubs it.
func (p *proxy) failWith(w http.ResponseWriter, r *http.Request, ctx context.Context, u *upstream, resp *http.Response, key string, stream bool) {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		p.fail(w, r, ctx, u, resp.Header, key, err, stream)
		return
	}
	var errRes openai.ErrorResponse
	if err := json.Unmarshal(body, &errRes); err != nil || errRes.Error == nil {
		reqErr := &openai.RequestError{HTTPStatus: resp.Status, HTTPStatusCode: resp.StatusCode, Err: err, Body: body}
		p.fail(w, r, ctx, u, resp.Header, key, reqErr, stream)
		return
	}
	errRes.Error.HTTPStatus, errRes.Error.HTTPStatusCode = resp.Status, resp.StatusCode
	p.fail(w, r, ctx, u, resp.Header, key, errRes.Error, stream)
}

// retryHeaders are the upstream's hints of when to try again, passed on with its errors:
// OpenAI's SDKs read both.
var retryHeaders = []string{"Retry-After", "Retry-After-Ms"}

// fail answers a failed call to u in OpenAI's error shape with the right status. header is
// the upstream's response header, nil when it never answered.
func (p *proxy) fail(w http.ResponseWriter, r *http.Request, ctx context.Context, u *upstream, header http.Header, key string, err error, stream bool) {
	if r.Context().Err() != nil {
		markClientGone(w)
		return
	}
	status, e := p.describe(ctx, u, header, key, err, stream)
	for _, name := range retryHeaders {
		if v := header.Get(name); v != "" {
			w.Header().Set(name, scrub(v, key))
		}
	}
	writeAPIError(w, status, e)
}

// describe turns a failure of a call to u into a status and an OpenAI-shaped error whose message
// never contains the key.
func (p *proxy) describe(ctx context.Context, u *upstream, header http.Header, key string, err error, stream bool) (int, apiError) {
	host := u.url.Host
	if errors.Is(context.Cause(ctx), errUpstreamTimeout) {
		msg := fmt.Sprintf("the upstream %s did not answer within %s (-timeout)", host, formatDuration(p.cfg.Timeout))
		return http.StatusGatewayTimeout, apiError{Message: msg, Type: "timeout", Code: "upstream_timeout"}
	}
	if errors.Is(err, errResponseTooLarge) {
		msg := fmt.Sprintf("the upstream %s answered more than %d bytes, the dev server's limit (-max-response)", host, p.cfg.MaxResponse)
		return http.StatusBadGateway, apiError{Message: msg, Type: "upstream_error", Code: "upstream_response_too_large"}
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		status := apiErr.HTTPStatusCode
		if status == 0 {
			status = http.StatusBadGateway
		}
		typ := apiErr.Type
		if typ == "" {
			typ = "upstream_error"
		}
		e := apiError{Message: scrub(apiErr.Message, key), Type: scrub(typ, key), Param: apiErr.Param, Code: apiErr.Code}
		switch c := e.Code.(type) {
		case string:
			e.Code = scrub(c, key)
		case int:
			// go-openai reads "code": null as the integer 0; OpenAI's codes are strings or null.
			if c == 0 {
				e.Code = nil
			}
		}
		if p := e.Param; p != nil {
			clean := scrub(*p, key)
			e.Param = &clean
		}
		if e.Message == "" {
			e.Message = fmt.Sprintf("the upstream %s answered %d %s", host, status, http.StatusText(status))
		}
		if status == http.StatusTooManyRequests {
			if ra := header.Get("Retry-After"); ra != "" && !strings.Contains(e.Message, "Retry") {
				e.Message += " (retry after " + scrub(ra, key) + "s)"
			}
		}
		return status, e
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		status := reqErr.HTTPStatusCode
		if status < 400 {
			status = http.StatusBadGateway
		}
		msg := fmt.Sprintf("the upstream %s answered %s", host, reqErr.HTTPStatus)
		if s := snippet(reqErr.Body, key); s != "" {
			msg += ": " + s
		}
		return status, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: nil}
	}
	var notUpstream errNotUpstream
	if errors.As(err, &notUpstream) {
		return http.StatusBadGateway, apiError{Message: scrub(notUpstream.Error(), key), Type: "upstream_error", Code: "upstream_redirect"}
	}
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) || errors.As(err, &opErr) || (errors.As(err, &netErr) && !netErr.Timeout()) {
		cause := err
		if opErr != nil {
			cause = opErr.Err
		}
		if dnsErr != nil {
			cause = dnsErr
		}
		msg := fmt.Sprintf("could not reach the upstream %s: %v", host, cause)
		return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "upstream_unreachable"}
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	what := "a chat completion"
	if stream {
		what = "a chat completion stream"
	}
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		msg := fmt.Sprintf("the upstream %s answered something that is not %s: %v", host, what, err)
		return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "bad_upstream_response"}
	}
	msg := fmt.Sprintf("the call to the upstream %s failed: %v", host, err)
	return http.StatusBadGateway, apiError{Message: scrub(msg, key), Type: "upstream_error", Code: "upstream_error"}
}
