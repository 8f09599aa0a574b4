# Exercise: all
# Attack: include/by_name
# Rule: rejected
# Why: the reference exercise file, by its bare name, is found through the exercise folder on the include path (the submission has another name, or it would find itself first).
set -u
echo "#include \"$(basename "$2")\"  // the whole reference: its functions and its main" > "$3/student.cpp"
echo student.cpp > "$3/.name"
