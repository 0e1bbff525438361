import Hummingbird
import Inventory
import StockroomStore

/// The OpenAPI 3.1 description of `/api`, written by hand beside the handlers it describes
/// (ServerTests checks the answers against it); the item's fields come from their declaration
/// (``FieldSchemas``).
enum OpenAPIDocument {
    static func register(on router: Router<BasicRequestContext>) {
        router.get("/api/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    static let text = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Stockroom",
        "version": "1",
        "description": "The inventory kept by `stockroom`, over HTTP: the same core, rules and wording as the command line. Errors are application/problem+json (RFC 9457) whose detail is the CLI's error line: 400 for what the client sent wrong in form (malformed JSON, a body that ends before its Content-Length, a bad parameter), 422 for well-formed content the rules refuse. Every GET is also answered to HEAD, with the same status and headers and no body (a HEAD of /api/export reads no item). Every answer carries X-Content-Type-Options: nosniff, Content-Security-Policy with frame-ancestors 'none', and X-Frame-Options: DENY."
      },
      "servers": [{"url": "/"}],
      "security": [{}, {"bearer": []}],
      "paths": {
        "/api/items": {
          "head": {
            "summary": "As GET, without the body",
            "responses": {"200": {"$ref": "#/components/responses/Head"}, "400": {"$ref": "#/components/responses/Head"}}
          },
          "get": {
            "summary": "List items, ordered by name then id (keyset paging)",
            "parameters": [
              {"name": "status", "in": "query", "schema": {"type": "string", "enum": \#(TagSpellings.jsonArray(TagSpellings.statusFilters))}},
              {"name": "color", "in": "query", "schema": {"$ref": "#/components/schemas/ColorName"}},
              {"name": "search", "in": "query", "schema": {"type": "string"}, "description": "Only names containing this text (ASCII letters in any case)."},
              {"name": "location", "in": "query", "schema": {"type": "string", "maxLength": 200}, "description": "Only items kept here: the whole location, letters in any case."},
              {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50}},
              {"name": "after", "in": "query", "schema": {"type": "string"}, "description": "The opaque cursor of the previous page's `next`."}
            ],
            "responses": {
              "200": {"description": "A page of items", "headers": {"Link": {"schema": {"type": "string"}, "description": "<URL>; rel=\"next\" when there is a next page"}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemPage"}}}},
              "400": {"$ref": "#/components/responses/Problem"}
            }
          },
          "post": {
            "summary": "Add an item (the object `import` reads for one row; without a status, in stock with 1, as `items add`)",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewItem"}}}},
            "responses": {
              "201": {"description": "Added, at version 1", "headers": {"Location": {"schema": {"type": "string"}}, "ETag": {"schema": {"type": "string"}}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "409": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/items/{id}": {
          "parameters": [{"$ref": "#/components/parameters/ItemID"}],
          "head": {
            "summary": "As GET, without the body",
            "parameters": [{"name": "If-None-Match", "in": "header", "schema": {"type": "string"}}],
            "responses": {"200": {"$ref": "#/components/responses/Head"}, "304": {"$ref": "#/components/responses/Head"},
                          "400": {"$ref": "#/components/responses/Head"}, "404": {"$ref": "#/components/responses/Head"}}
          },
          "get": {
            "summary": "One item with its version",
            "parameters": [{"name": "If-None-Match", "in": "header", "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The item", "headers": {"ETag": {"schema": {"type": "string"}}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
              "304": {"description": "Unchanged since the ETag given"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          },
          "patch": {
            "summary": "Change name, colour or status (JSON merge patch) while the item is at the version If-Match names",
            "parameters": [{"$ref": "#/components/parameters/IfMatch"}],
            "requestBody": {"required": true, "content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/ItemPatch"}},
                                                          "application/json": {"schema": {"$ref": "#/components/schemas/ItemPatch"}}}},
            "responses": {
              "200": {"description": "The item as changed", "headers": {"ETag": {"schema": {"type": "string"}}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"},
              "412": {"$ref": "#/components/responses/Stale"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "428": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          },
          "delete": {
            "summary": "Delete the item while it is at the version If-Match names; its history stays",
            "parameters": [{"$ref": "#/components/parameters/IfMatch"}],
            "responses": {
              "204": {"description": "Deleted"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"},
              "412": {"$ref": "#/components/responses/Stale"},
              "428": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/items/{id}/history": {
          "parameters": [{"$ref": "#/components/parameters/ItemID"}],
          "head": {"summary": "As GET, without the body", "responses": {"200": {"$ref": "#/components/responses/Head"},
                   "400": {"$ref": "#/components/responses/Head"}, "404": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "Every change to the item, oldest first; kept after delete (`items history --format json`)",
            "responses": {
              "200": {"description": "The events", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/items/{id}/adjustments": {
          "parameters": [{"$ref": "#/components/parameters/ItemID"}],
          "post": {
            "summary": "Change the quantity in stock by a number, relative to what is stored when the change commits (`items adjust`): -1 sells one, 10 receives ten. Adjustments sent at once all count, each one version; If-Match is optional. Taking the last one leaves the item out of stock (not on back order); an out-of-stock item receiving N is in stock N; by 0 changes nothing; taking more than is in stock is refused (422, nothing changed)",
            "parameters": [{"name": "If-Match", "in": "header", "schema": {"type": "string", "pattern": "^(W/)?\"[0-9]{1,9}\"$"}, "description": "Adjust only while the item is at this ETag's version, e.g. \"3\"."}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Adjustment"}}}},
            "responses": {
              "200": {"description": "The item as adjusted", "headers": {"ETag": {"schema": {"type": "string"}}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"},
              "412": {"$ref": "#/components/responses/Stale"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/events": {
          "head": {"summary": "As GET, without the body: the stream's headers, and no stream", "responses": {"200": {"$ref": "#/components/responses/Head"}, "400": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "Server-Sent Events: one per history event committed by anyone, in commit order; `id` is the event's position (1, 2, 3, ... without gaps), `event` its kind, `data` the object of `items history --format json`. Reconnecting with Last-Event-ID resumes with nothing lost or repeated.",
            "parameters": [
              {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
              {"name": "after", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}, "description": "As Last-Event-ID, for clients that cannot set headers."},
              {"name": "include", "in": "query", "schema": {"type": "string", "enum": ["conflicts"]}, "description": "`conflicts`: the stream also carries `event: conflicts` with `data` `{\"open\": N}`, the number of open conflicts, at once and whenever it changes; it has no `id`."}
            ],
            "responses": {
              "200": {"description": "The stream, open until the client or the server stops", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
              "400": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/export": {
          "head": {
            "summary": "As GET, without the body; no item is read",
            "parameters": [{"name": "format", "in": "query", "schema": {"type": "string", "enum": ["jsonl", "csv", "json"], "default": "jsonl"}}],
            "responses": {"200": {"$ref": "#/components/responses/Head"}, "400": {"$ref": "#/components/responses/Head"}}
          },
          "get": {
            "summary": "Every item ordered by id, streamed: the bytes of `stockroom export`",
            "parameters": [{"name": "format", "in": "query", "schema": {"type": "string", "enum": ["jsonl", "csv", "json"], "default": "jsonl"}}],
            "responses": {
              "200": {"description": "The file", "headers": {"Content-Disposition": {"schema": {"type": "string"}}},
                      "content": {"application/jsonl": {"schema": {"type": "string"}}, "text/csv": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "array"}}}},
              "400": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/import": {
          "post": {
            "summary": "Add the items of a CSV or JSON Lines file: all or none",
            "parameters": [
              {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["csv", "jsonl"]}, "description": "Default: csv for a text/csv body, else jsonl."},
              {"name": "on-conflict", "in": "query", "schema": {"type": "string", "enum": ["fail", "skip", "replace"], "default": "fail"}}
            ],
            "requestBody": {"required": true, "content": {"text/csv": {"schema": {"type": "string"}}, "application/jsonl": {"schema": {"type": "string"}},
                                                          "application/x-ndjson": {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}},
                                                          "application/octet-stream": {"schema": {"type": "string"}}}},
            "responses": {
              "200": {"description": "Imported", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ImportSummary"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"description": "Bad rows: nothing was imported", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ImportProblem"}}}},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/sync": {
          "head": {"summary": "As GET, without the body", "security": [{"bearer": []}], "responses": {"200": {"$ref": "#/components/responses/Head"}, "401": {"$ref": "#/components/responses/Head"}, "403": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "The hub a replica syncs with (docs/replicas.md, \"The sync protocol\"): its id, versions, the largest batch it takes, and whether it takes pushes. Sync always needs the server's token, on loopback too",
            "security": [{"bearer": []}],
            "responses": {
              "200": {"description": "The hub", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SyncHub"}}}},
              "401": {"$ref": "#/components/responses/Problem"},
              "403": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/sync/batches": {
          "post": {
            "summary": "Push a batch of one replica's intents, in its order, applied in one hub transaction; an intent applied before (a retry) is skipped. The rows are the outbox's columns as text",
            "security": [{"bearer": []}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SyncBatch"}}}},
            "responses": {
              "200": {"description": "Applied", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SyncApplied"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "403": {"$ref": "#/components/responses/Problem"},
              "405": {"$ref": "#/components/responses/Problem"},
              "409": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/sync/changes": {
          "head": {"summary": "As GET, without the body", "security": [{"bearer": []}], "parameters": [{"name": "after", "in": "query", "required": true, "schema": {"type": "integer", "minimum": 0}}],
                   "responses": {"200": {"$ref": "#/components/responses/Head"}, "400": {"$ref": "#/components/responses/Head"}, "401": {"$ref": "#/components/responses/Head"}, "403": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "What a replica pulls after the hub position it last pulled: the items changed since (none when the pull is whole: the first, or after the hub's history went backwards), and the open conflicts",
            "security": [{"bearer": []}],
            "parameters": [{"name": "after", "in": "query", "required": true, "schema": {"type": "integer", "minimum": 0}}],
            "responses": {
              "200": {"description": "The changes", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SyncChanges"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "403": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/sync/items": {
          "head": {"summary": "As GET, without the body", "security": [{"bearer": []}], "parameters": [{"name": "after", "in": "query", "schema": {"type": "string"}}],
                   "responses": {"200": {"$ref": "#/components/responses/Head"}, "400": {"$ref": "#/components/responses/Head"}, "401": {"$ref": "#/components/responses/Head"}, "403": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "A page of every item in id order, for a whole pull",
            "security": [{"bearer": []}],
            "parameters": [{"name": "after", "in": "query", "schema": {"type": "string"}, "description": "The previous page's next (an item id); empty or absent for the first page."}],
            "responses": {
              "200": {"description": "The page", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SyncPage"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "403": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/drafts": {
          "head": {"summary": "As GET, without the body", "responses": {"200": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "Every open draft",
            "responses": {"200": {"description": "The drafts", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Draft"}}}}}}
          },
          "post": {
            "summary": "Start a draft: adding (with any fields of an item) or duplicating an item ({\"duplicate\": ITEM-ID})",
            "requestBody": {"content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/ItemPatch"},
                              {"type": "object", "required": ["duplicate"], "properties": {"duplicate": {"type": "string"}}, "additionalProperties": false}]}}}},
            "responses": {
              "201": {"description": "Started", "headers": {"Location": {"schema": {"type": "string"}}},
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Draft"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/api/drafts/{id}": {
          "parameters": [{"$ref": "#/components/parameters/DraftID"}],
          "head": {"summary": "As GET, without the body", "responses": {"200": {"$ref": "#/components/responses/Head"},
                   "400": {"$ref": "#/components/responses/Head"}, "404": {"$ref": "#/components/responses/Head"}}},
          "get": {"summary": "One draft", "responses": {"200": {"description": "The draft", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Draft"}}}},
                                                        "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}},
          "patch": {
            "summary": "Edit the draft (JSON merge patch; the name may stay empty)",
            "requestBody": {"required": true, "content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/ItemPatch"}},
                                                          "application/json": {"schema": {"$ref": "#/components/schemas/ItemPatch"}}}},
            "responses": {"200": {"description": "The draft", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Draft"}}}},
                          "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"},
                          "413": {"$ref": "#/components/responses/Problem"}, "415": {"$ref": "#/components/responses/Problem"},
                          "422": {"$ref": "#/components/responses/Problem"}, "503": {"$ref": "#/components/responses/Busy"}}
          },
          "delete": {"summary": "Cancel the draft", "responses": {"204": {"description": "Cancelled"}, "400": {"$ref": "#/components/responses/Problem"},
                                                                   "404": {"$ref": "#/components/responses/Problem"}, "503": {"$ref": "#/components/responses/Busy"}}}
        },
        "/api/drafts/{id}/save": {
          "parameters": [{"$ref": "#/components/parameters/DraftID"}],
          "post": {"summary": "Save the draft as a new item; a conflict's draft (resolving) resolves the conflict with its item", "responses": {
            "200": {"description": "A conflict resolved: the item as the resolution left it, at its version", "headers": {"Location": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
            "201": {"description": "Saved", "headers": {"Location": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
            "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}, "422": {"$ref": "#/components/responses/Problem"},
            "503": {"$ref": "#/components/responses/Busy"}}}
        },
        "/api/drafts/{id}/wizard": {
          "parameters": [{"$ref": "#/components/parameters/DraftID"}],
          "head": {"summary": "As GET, without the body", "responses": {"200": {"$ref": "#/components/responses/Head"},
                   "400": {"$ref": "#/components/responses/Head"}, "404": {"$ref": "#/components/responses/Head"}}},
          "get": {
            "summary": "The wizard's question (the first, or the step named), worded as `draft wizard` words it",
            "parameters": [{"$ref": "#/components/parameters/Step"},
                           {"name": "remembered-quantity", "in": "query", "description": "The `remembered.quantity` of the step before (with remembered-back-order)", "schema": {"type": "integer"}},
                           {"name": "remembered-back-order", "in": "query", "description": "The `remembered.isOnBackOrder` of the step before (with remembered-quantity)", "schema": {"type": "string", "enum": ["true", "false"]}}],
            "responses": {"200": {"description": "The step", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WizardStep"}}}},
                          "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}
          },
          "post": {
            "summary": "Answer a step as typed at the terminal (Enter is \"\", back is \"<\"); the answer is stored at once",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["answer"],
                            "properties": {"step": {"$ref": "#/components/schemas/StepName"}, "answer": {"type": "string"},
                            "remembered": {"$ref": "#/components/schemas/WizardMemory"}}}}}},
            "responses": {
              "200": {"description": "The next step, or the draft cancelled or kept", "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/WizardStep"}, {"$ref": "#/components/schemas/WizardEnd"}]}}}},
              "201": {"description": "Saved", "headers": {"Location": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WizardEnd"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"description": "The answer was not taken: the same step, with the reason", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WizardStep"}}}},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        }
      },
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "Required when the server is bound to anything but loopback: the token printed in its URL."}},
        "parameters": {
          "ItemID": {"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9A-Fa-f-]{4,36}$"}, "description": "The id, or a unique prefix of at least 4 characters."},
          "DraftID": {"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9A-Fa-f-]{4,36}$"}, "description": "The draft's id, or a unique prefix of at least 4 characters."},
          "IfMatch": {"name": "If-Match", "in": "header", "required": true, "schema": {"type": "string", "pattern": "^(W/)?\"[0-9]{1,9}\"$"}, "description": "The ETag last read, e.g. \"3\"."},
          "Step": {"name": "step", "in": "query", "schema": {"$ref": "#/components/schemas/StepName"}}
        },
        "responses": {
          "Head": {"description": "The status and headers GET would answer, without a body"},
          "Problem": {"description": "An error", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
          "Stale": {"description": "The item is at another version: nothing was changed", "headers": {"ETag": {"schema": {"type": "string"}}},
                    "content": {"application/problem+json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Problem"},
                                {"type": "object", "required": ["currentVersion"], "properties": {"currentVersion": {"type": "integer"}}}]}}}},
          "Busy": {"description": "The database stayed busy past --busy-timeout: nothing was changed; retry", "headers": {"Retry-After": {"schema": {"type": "string"}}},
                   "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        },
        "schemas": {
          "ColorName": {"type": "string", "enum": ["black", "blue", "green", "red", "white", "yellow"]},
          "Status": {"oneOf": [
            \#(StatusCodec.Tag.allCases.map(TagSpellings.statusSchema(for:)).joined(separator: ",\n            "))
          ]},
          "Item": {"type": "object", "required": ["id", \#(FieldSchemas.keys)], "properties": {
            "id": {"type": "string", "format": "uuid"}, \#(FieldSchemas.properties(for: .item)), "version": {"type": "integer", "minimum": 1}}},
          "NewItem": {"type": "object", "required": ["name"], "properties": {
            "id": {"type": ["string", "null"], "format": "uuid"}, \#(FieldSchemas.properties(for: .newItem)),
            "createdAt": {"type": ["string", "null"]}, "updatedAt": {"type": ["string", "null"]}}, "additionalProperties": false},
          "Adjustment": {"type": "object", "required": ["by"], "additionalProperties": false, "properties": {
            "by": {"type": "integer", "format": "int64", "minimum": -9223372036854775808, "maximum": 9223372036854775807, "description": "How many more are in stock: negative to take, positive to receive."}}},
          "ItemPatch": {"type": "object", "additionalProperties": false, "properties": {
            \#(FieldSchemas.properties(for: .patch))}},
          "ItemPage": {"type": "object", "required": ["items", "next"], "properties": {
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}, "next": {"type": ["string", "null"]}}},
          "Event": {"type": "object", "required": ["itemId", "version", "kind", "recordedAt"], "properties": {
            "itemId": {"type": "string"}, "version": {"type": "integer"}, "kind": {"type": "string", "enum": \#(TagSpellings.jsonArray(TagSpellings.eventKinds))},
            "recordedAt": {"type": "string"}, "item": {"$ref": "#/components/schemas/Item"},
            \#(FieldSchemas.changes),
            "adjustedBy": {"type": "integer", "description": "present when the change was an adjustment by this many units (items adjust, POST .../adjustments, the counter)"},
            "origin": {"type": "string", "description": "present on a hub when the change applied a replica's intent: the replica's id"},
            "intentId": {"type": "string", "description": "present with origin: the intent's id"}}},
          "Draft": {"type": "object", "required": ["id", "case", "sourceItemId", "item"], "properties": {
            "id": {"type": "string"}, "case": {"type": "string", "enum": \#(TagSpellings.jsonArray(TagSpellings.draftKinds))},
            "sourceItemId": {"type": ["string", "null"]}, "item": {"$ref": "#/components/schemas/Item"},
            "conflict": {"$ref": "#/components/schemas/Conflict"}}},
          "Conflict": {"type": "object", "description": "A resolving draft's conflict between replicas (docs/replicas.md)",
            "required": ["reason", "origin", "madeAt", "hubHoldsItem", "shown", "wanted", "adjustment", "missing"], "properties": {
            "reason": {"type": "string", "enum": \#(TagSpellings.jsonArray(ConflictReason.Case.allCases.map(\.rawValue)))},
            "origin": {"type": "string", "format": "uuid"}, "madeAt": {"type": "string"}, "hubHoldsItem": {"type": "boolean"},
            "shown": {"$ref": "#/components/schemas/Item"}, "wanted": {"oneOf": [{"$ref": "#/components/schemas/Item"}, {"type": "null"}]},
            "adjustment": {"type": ["integer", "null"]}, "missing": {"type": ["integer", "null"]}}},
          "StepName": {"type": "string", "enum": ["name", "color", "location", "inStock", "quantity", "backOrder", "review"]},
          "WizardStep": {"type": "object", "required": ["step", "prompt", "path", "draft"], "properties": {
            "step": {"$ref": "#/components/schemas/StepName"}, "prompt": {"type": "array", "items": {"type": "string"}},
            "path": {"type": "array", "items": {"$ref": "#/components/schemas/StepName"}}, "draft": {"$ref": "#/components/schemas/Draft"},
            "reason": {"type": "string"}, "remembered": {"$ref": "#/components/schemas/WizardMemory"}}},
          "WizardMemory": {"type": "object", "required": ["quantity", "isOnBackOrder"],
            "description": "What the wizard remembers beyond the draft (the answer last given on each branch of inStock): send it back with the next answer, as the terminal's wizard keeps it between questions",
            "properties": {"quantity": {"type": "integer"}, "isOnBackOrder": {"type": "boolean"}}},
          "WizardEnd": {"type": "object", "required": ["finished"], "properties": {
            "finished": {"type": "string", "enum": ["save", "cancel", "quit"]}, "item": {"$ref": "#/components/schemas/Item"}, "draft": {"$ref": "#/components/schemas/Draft"}}},
          "ImportSummary": {"type": "object", "required": ["rows", "imported", "skipped", "replaced"], "properties": {
            "rows": {"type": "integer"}, "imported": {"type": "integer"}, "skipped": {"type": "integer"}, "replaced": {"type": "integer"}}},
          "SyncRow": {"type": "array", "items": {"type": ["string", "null"]}, "description": "A table row's columns as text, null for NULL, in the table's order: both sides are at one schema version"},
          "SyncHub": {"type": "object", "required": ["hub", "protocolVersion", "schemaVersion", "largestBatch", "readOnly"], "properties": {
            "hub": {"type": "string", "format": "uuid"}, "protocolVersion": {"type": "integer"}, "schemaVersion": {"type": "integer"},
            "largestBatch": {"type": "integer"}, "readOnly": {"type": "boolean"}, "replicaOf": {"type": ["string", "null"]}}},
          "SyncBatch": {"type": "object", "required": ["replica", "machine", "path", "schemaVersion", "columns", "intents"], "properties": {
            "replica": {"type": "string", "format": "uuid"},
            "machine": {"type": "string", "minLength": 1, "description": "The machine the replica registered on: the hub binds the replica's id to it and the path"},
            "path": {"type": "string", "minLength": 1}, "schemaVersion": {"type": "integer"},
            "columns": {"type": "array", "items": {"type": "string"}}, "intents": {"type": "array", "maxItems": 500, "items": {"$ref": "#/components/schemas/SyncRow"}},
            "reread": {"type": "array", "items": {"type": "string", "format": "uuid"}, "description": "Items whose rows the answer carries too: those a sync killed after its push left to re-read"}}},
          "SyncApplied": {"type": "object", "required": ["applied", "alreadyApplied", "conflictsOpened", "items"], "properties": {
            "applied": {"type": "integer"}, "alreadyApplied": {"type": "integer"}, "conflictsOpened": {"type": "integer"},
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/SyncRow"}}}},
          "SyncChanges": {"type": "object", "required": ["position", "whole", "items", "conflicts"], "properties": {
            "position": {"type": "integer"}, "whole": {"type": "boolean"},
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/SyncRow"}}, "conflicts": {"type": "array", "items": {"$ref": "#/components/schemas/SyncRow"}}}},
          "SyncPage": {"type": "object", "required": ["items", "next"], "properties": {
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/SyncRow"}}, "next": {"type": ["string", "null"]}}},
          "Problem": {"type": "object", "required": ["type", "title", "status", "detail"], "properties": {
            "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}}},
          "ImportProblem": {"allOf": [{"$ref": "#/components/schemas/Problem"}, {"type": "object", "required": ["errors", "total"], "properties": {
            "errors": {"type": "array", "items": {"type": "object", "required": ["line", "reason"], "properties": {"line": {"type": "integer"}, "reason": {"type": "string"}}}},
            "total": {"type": "integer"}}}]}
        }
      }
    }
    """#
}
