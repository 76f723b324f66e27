package tools

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// EmptyLists returns v with every nil slice it holds (at any depth, through
// fields, pointers, maps and interfaces) made an empty one, so that a list
// encodes as [] and never as null, as the documents type it (a plain
// array). v itself is never changed: what holds a nil slice is copied, so a
// payload that shares records with a cache stays safe to return. Byte
// slices (base64 strings) and types that marshal themselves are left as
// they are; so is a zero field tagged omitzero, which is left out.
func EmptyLists(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if !holdsLists(rv.Type()) {
		return v
	}
	out, changed := emptyLists(rv)
	if !changed {
		return v
	}
	return out.Interface()
}

// emptyLists returns a copy of v with its nil slices empty, and whether it
// differs from v; when it does not, v itself is returned.
func emptyLists(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if v.Kind() != reflect.Interface && !holdsLists(t) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		inner, changed := emptyLists(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(t).Elem()
		out.Set(inner)
		return out, true
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		inner, changed := emptyLists(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(inner)
		return p, true
	case reflect.Slice:
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0), true
		}
		var out reflect.Value
		for i := range v.Len() {
			item, changed := emptyLists(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeSlice(t, v.Len(), v.Len())
				reflect.Copy(out, v)
			}
			out.Index(i).Set(item)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Array:
		var out reflect.Value
		for i := range v.Len() {
			item, changed := emptyLists(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Index(i).Set(item)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		var out reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			if _, changed := emptyLists(iter.Value()); changed {
				out = reflect.MakeMapWithSize(t, v.Len())
				break
			}
		}
		if !out.IsValid() {
			return v, false
		}
		iter = v.MapRange()
		for iter.Next() {
			item, _ := emptyLists(iter.Value())
			out.SetMapIndex(iter.Key(), item)
		}
		return out, true
	case reflect.Struct:
		var out reflect.Value
		for _, i := range listFields(t) {
			if omitZero(t.Field(i)) && v.Field(i).IsZero() {
				continue // left out as it is; an empty list would be written
			}
			f, changed := emptyLists(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Field(i).Set(f)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	}
	return v, false
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	listsCache        sync.Map // reflect.Type → bool
	fieldsCache       sync.Map // reflect.Type → []int
)

// marshalsItself reports whether encoding/json leaves t to its own methods.
func marshalsItself(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
}

// holdsLists reports whether a value of type t may hold a slice
// EmptyLists would change (an interface may hold anything).
func holdsLists(t reflect.Type) bool {
	if v, ok := listsCache.Load(t); ok {
		return v.(bool)
	}
	listsCache.Store(t, false) // a recursive type holds lists through another path, or not at all
	v := computeHoldsLists(t)
	listsCache.Store(t, v)
	return v
}

func computeHoldsLists(t reflect.Type) bool {
	if marshalsItself(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Array, reflect.Map:
		return holdsLists(t.Elem())
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8
	case reflect.Struct:
		return len(listFields(t)) > 0
	}
	return false
}

// listFields are the indexes of t's encoded fields that may hold lists.
func listFields(t reflect.Type) []int {
	if v, ok := fieldsCache.Load(t); ok {
		return v.([]int)
	}
	var out []int
	fieldsCache.Store(t, out)
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		if holdsLists(f.Type) {
			out = append(out, i)
		}
	}
	fieldsCache.Store(t, out)
	return out
}

// omitZero reports whether f's json tag says omitzero.
func omitZero(f reflect.StructField) bool { return hasOption(f.Tag.Get("json"), "omitzero") }

// hasOption reports whether a json tag lists option after its name.
func hasOption(tag, option string) bool {
	for i := 0; i < len(tag); {
		j := i
		for j < len(tag) && tag[j] != ',' {
			j++
		}
		if i > 0 && tag[i:j] == option {
			return true
		}
		i = j + 1
	}
	return false
}
