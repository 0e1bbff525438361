// Stockroom's reader under a name of its own: yaslab's module also declares a `CSVReader`.
typealias StockroomCSVReader = CSVReader
