# Writes OUT: a C++ file defining sb::<NS>::Embedded(), a map from "<dir>/<file>" (the last two
# path parts, e.g. "sqlite/schema.sql") to the file's text.
set(body "#include <map>\n#include <string>\nnamespace sb::${NS} {\nconst std::map<std::string, std::string>& Embedded() {\n  static const std::map<std::string, std::string> kFiles = {\n")
string(REPLACE "|" ";" FILES "${FILES}")
foreach(f ${FILES})
  get_filename_component(name ${f} NAME)
  get_filename_component(dir ${f} DIRECTORY)
  get_filename_component(dir ${dir} NAME)
  file(READ ${f} text)
  string(APPEND body "    {\"${dir}/${name}\", R\"sbtext(${text})sbtext\"},\n")
endforeach()
string(APPEND body "  };\n  return kFiles;\n}\n}  // namespace sb::${NS}\n")
file(WRITE ${OUT} "${body}")
