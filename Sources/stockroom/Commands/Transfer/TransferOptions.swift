import ArgumentParser
import StockroomStore

extension TransferFormat: ExpressibleByArgument {}
extension ItemImport.ConflictPolicy: ExpressibleByArgument {}
