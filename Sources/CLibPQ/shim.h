#ifndef STOCKROOM_CLIBPQ_SHIM_H
#define STOCKROOM_CLIBPQ_SHIM_H

#include <libpq-fe.h>

// The PG_DIAG_* field codes are character-literal macros ('C', 'n', ...), which Swift does not
// import; these constants make them usable with PQresultErrorField.
static const int clibpq_diag_severity = PG_DIAG_SEVERITY_NONLOCALIZED;
static const int clibpq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int clibpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int clibpq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int clibpq_diag_message_hint = PG_DIAG_MESSAGE_HINT;
static const int clibpq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
static const int clibpq_diag_table_name = PG_DIAG_TABLE_NAME;
static const int clibpq_diag_column_name = PG_DIAG_COLUMN_NAME;

#endif
