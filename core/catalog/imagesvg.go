package catalog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// svgNamespace is the namespace of an SVG document's elements.
const svgNamespace = "http://www.w3.org/2000/svg"

// svgRefusedElements are the SVG elements a catalog picture may not hold:
// what runs script, embeds another document or loads another resource, and
// animation (which can rewrite a link).
var svgRefusedElements = map[string]bool{
	"script": true, "foreignobject": true, "iframe": true, "embed": true, "object": true,
	"image": true, "feimage": true, "a": true, "use": true,
	"animate": true, "animatemotion": true, "animatetransform": true, "set": true, "discard": true,
	"handler": true, "listener": true,
}

// CheckSVG reports whether data is a safe, static SVG picture: well-formed
// XML whose root is an <svg> element in the SVG namespace, with no DOCTYPE
// or entity, no element that runs script, embeds or loads anything (script,
// foreignObject, image, use, a, iframe, embed, object) or animates, no event
// handler attribute (on...), no link (href) and no url() other than to a
// fragment of the picture itself, and no @import. It returns nil or an error
// saying what it found.
func CheckSVG(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if depth == 0 {
				roots++
				if name != "svg" || t.Name.Space != svgNamespace {
					return fmt.Errorf("the root element must be <svg> in the SVG namespace, not <%s>", t.Name.Local)
				}
			}
			if svgRefusedElements[name] {
				return fmt.Errorf("holds a <%s> element", t.Name.Local)
			}
			for _, a := range t.Attr {
				if err := checkSVGAttr(a); err != nil {
					return err
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if err := checkSVGText(string(t)); err != nil {
				return err
			}
		case xml.Directive:
			return errors.New("holds a DOCTYPE or other directive")
		case xml.ProcInst:
			if t.Target != "xml" {
				return fmt.Errorf("holds a processing instruction <?%s?>", t.Target)
			}
		}
	}
	if roots != 1 {
		return errors.New("must hold one <svg> element")
	}
	return nil
}

// checkSVGAttr refuses an event handler, a link that leaves the picture and
// a value that loads anything.
func checkSVGAttr(a xml.Attr) error {
	name := strings.ToLower(a.Name.Local)
	if strings.HasPrefix(name, "on") {
		return fmt.Errorf("holds an event handler attribute %q", a.Name.Local)
	}
	if name == "href" || name == "src" {
		if !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
			return fmt.Errorf("links outside the picture (%s=%q)", a.Name.Local, a.Value)
		}
	}
	return checkSVGText(a.Value)
}

// checkSVGText refuses url() other than to a fragment (#id), @import and
// script addresses in an attribute's value or a style sheet's text.
func checkSVGText(s string) error {
	lower := strings.ToLower(s)
	if strings.Contains(lower, "@import") {
		return errors.New("holds an @import")
	}
	if strings.Contains(lower, "javascript:") {
		return errors.New("holds a javascript: address")
	}
	for rest := lower; ; {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return nil
		}
		rest = strings.TrimLeft(rest[i+len("url("):], " \t\r\n'\"")
		if !strings.HasPrefix(rest, "#") {
			return errors.New("loads a resource through url()")
		}
	}
}
